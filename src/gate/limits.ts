// Bounds on the work one command line may cost the gate (issue 12.4: no input can stall wisp). Past a bound the
// line is read more roughly and rated higher, never lower (fail closed).

/**
 * Most statements one line is read into, and most rough commands of an unparsed text that are rated one by one. Each
 * costs a walk of its syntax node and a rating (tens of microseconds); ordinary lines have a handful.
 */
export const MAX_PARTS = 512;
