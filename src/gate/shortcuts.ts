// The classifier's shortcuts (ADR 0074): each skips work that cannot change what the gate says, and each sits beside
// the full way it replaces. Tests turn them off to run the full way and compare the two over the golden lines,
// generated lines and odd places (test/gate/classify-shortcuts.test.ts). Nothing but a test changes this.
export const shortcuts = { on: true };
