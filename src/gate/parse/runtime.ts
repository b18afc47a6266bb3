// The tree-sitter runtime of the shell parser (ADR 0001): loading the WASM runtime and the bash grammar once, the
// lazy mode in which `wisp check` decides plain-word lines without loading it (ADR 0040), and the bounds on one
// line's parsing (issue #12.4, ADR 0019).
import { createRequire } from 'node:module';
import type { Parser as TsParser } from 'web-tree-sitter';

let parser: TsParser | undefined;
let initializing: Promise<void> | undefined;
let binding: CursorBinding | undefined;

/**
 * The runtime's own tree-cursor functions (ADR 0072). web-tree-sitter's TreeCursor copies the cursor's four words
 * into the runtime's transfer buffer before every call and back after each move; these take the cursor where the
 * previous call left it, so a walk over a whole tree is a few plain wasm calls per node. Each takes the tree's address.
 */
export interface CursorBinding {
  /** Puts the tree's root node in the transfer buffer. */
  readonly _ts_tree_root_node_wasm: (tree: number) => void;
  /** Whether the node in the transfer buffer is, or holds, an ERROR or MISSING node. */
  readonly _ts_node_has_error_wasm: (tree: number) => number;
  /** Makes a cursor on the node in the transfer buffer; the cursor is left there. */
  readonly _ts_tree_cursor_new_wasm: (tree: number) => void;
  readonly _ts_tree_cursor_delete_wasm: (tree: number) => void;
  readonly _ts_tree_cursor_goto_first_child_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_goto_next_sibling_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_goto_parent_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_current_node_type_id_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_current_node_is_named_wasm: (tree: number) => number;
  /** Whether the cursor's node is a MISSING node (inserted by error recovery). */
  readonly _ts_tree_cursor_current_node_is_missing_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_current_field_id_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_start_index_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_end_index_wasm: (tree: number) => number;
}

const CURSOR_FUNCTIONS = [
  '_ts_tree_root_node_wasm',
  '_ts_node_has_error_wasm',
  '_ts_tree_cursor_new_wasm',
  '_ts_tree_cursor_delete_wasm',
  '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm',
  '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_current_node_type_id_wasm',
  '_ts_tree_cursor_current_node_is_named_wasm',
  '_ts_tree_cursor_current_node_is_missing_wasm',
  '_ts_tree_cursor_current_field_id_wasm',
  '_ts_tree_cursor_start_index_wasm',
  '_ts_tree_cursor_end_index_wasm',
] as const;

/** The cursor functions when the runtime put them on the options object (else undefined: the public API is used). */
function cursorBinding(options: Record<string, unknown>): CursorBinding | undefined {
  for (const name of CURSOR_FUNCTIONS) if (typeof options[name] !== 'function') return undefined;
  return options as unknown as CursorBinding;
}

/**
 * The runtime's own parse entry (ADR 0081): what web-tree-sitter's `Parser.parse` does for a string without options,
 * less its per-tree bookkeeping — every Tree it makes is registered with a FinalizationRegistry (and unregistered by
 * `delete`), which cost about as much as reading a small tree. The tree is made here without that registration; every
 * tree of the parse path is deleted explicitly (`finally`), so nothing relies on the finalizer.
 */
interface ParseBinding {
  /** Parses with the parser's input callback; returns the tree's address (0: no tree). */
  readonly _ts_parser_parse_wasm: (parser: number, input: number, oldTree: number, ranges: number, rangeCount: number) => number;
  /** The callback the runtime's input function reads the text through (set for the call, cleared after). */
  currentParseCallback: ((index: number) => string) | null;
  currentProgressCallback: unknown;
  currentLogCallback: unknown;
}

let direct: { readonly binding: ParseBinding; readonly treePrototype: object } | undefined;

/** The direct parse when the runtime's entry, callback slots and Tree shape are as expected (else the public parse). */
function directParse(options: Record<string, unknown>, p: TsParser): typeof direct {
  if (typeof options['_ts_parser_parse_wasm'] !== 'function') return undefined;
  for (const slot of ['currentParseCallback', 'currentProgressCallback', 'currentLogCallback']) if (!(slot in options)) return undefined;
  const probe = p.parse('x');
  if (!probe) return undefined;
  try {
    const fields = probe as unknown as Record<string | number, unknown>;
    if (typeof fields[0] !== 'number' || fields['language'] !== p.language || !('textCallback' in fields)) return undefined;
    return { binding: options as unknown as ParseBinding, treePrototype: Object.getPrototypeOf(probe) as object };
  } finally {
    probe.delete();
  }
}

/** Whether texts are parsed through the runtime's own entry (see ParseBinding). */
export function directParseOn(): boolean {
  return direct !== undefined;
}

/** Tests run the parse through web-tree-sitter's public `parse` to compare both (test/gate/parse-direct.test.ts). */
export function withPublicParse<T>(fn: () => T): T {
  const before = direct;
  direct = undefined;
  try {
    return fn();
  } finally {
    direct = before;
  }
}

/** Parses `src` as `p.parse(src)` does, through the runtime's entry when it could be reached. */
function parseText(p: TsParser, src: string): ReturnType<TsParser['parse']> {
  const d = direct;
  if (d === undefined) return p.parse(src);
  const b = d.binding;
  const handle = p as unknown as Record<number, number>;
  const input = (index: number): string => src.slice(index);
  b.currentParseCallback = input;
  b.currentProgressCallback = null;
  b.currentLogCallback = null;
  let address: number;
  try {
    address = b._ts_parser_parse_wasm(handle[0]!, handle[1]!, 0, 0, 0);
  } finally {
    b.currentParseCallback = null;
  }
  if (!address) return null;
  // A Tree as web-tree-sitter's constructor makes it (address, language, text callback), without the registration.
  const tree = Object.create(d.treePrototype) as Record<string | number, unknown>;
  tree[0] = address;
  tree['language'] = p.language;
  tree['textCallback'] = input;
  return tree as unknown as NonNullable<ReturnType<TsParser['parse']>>;
}

/** The runtime's cursor functions, when they could be reached (see CursorBinding). */
export function cursorFunctions(): CursorBinding | undefined {
  return binding;
}

/** Tests run the walk without the cursor functions to compare both readings of a tree. */
export function withoutCursorFunctions<T>(fn: () => T): T {
  const before = binding;
  binding = undefined;
  try {
    return fn();
  } finally {
    binding = before;
  }
}

/** Loads the WASM runtime and the bash grammar once; later calls return at once. */
export function initParser(): Promise<void> {
  if (parser) return Promise.resolve();
  initializing ??= (async () => {
    const require = createRequire(import.meta.url);
    const runtimeWasm = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
    const grammarWasm = require.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
    const { Parser, Language } = await import('web-tree-sitter');
    // Emscripten makes the options object the runtime's module: the wasm exports land on it (ADR 0072).
    const options: Record<string, unknown> = { locateFile: () => runtimeWasm };
    await Parser.init(options);
    binding = cursorBinding(options);
    const language = await Language.load(grammarWasm);
    const p = new Parser();
    p.setLanguage(language);
    direct = directParse(options, p);
    parser = p;
  })().catch((err: unknown) => {
    initializing = undefined; // let a later call retry
    throw err;
  });
  return initializing;
}

export function parserReady(): boolean {
  return parser !== undefined;
}

/**
 * Thrown (instead of turning the text into an `unparsed` part) when a text needs tree-sitter while the parser is not
 * loaded and `withoutParser` is running: the caller loads the parser and starts over (ADR 0040).
 */
export class ParserNotReady extends Error {
  constructor() {
    super('the shell parser is not initialised: await initParser() before parseLine()');
  }
}

/** While true, parsing without a loaded parser throws ParserNotReady for texts the plain-word path does not take. */
let lazy = false;

/** The loaded parser; throws ParserNotReady when it is not loaded (in `withoutParser`, the caller loads it). */
export function loadedParser(): TsParser {
  if (!parser) throw new ParserNotReady();
  return parser;
}

/** Whether text can be parsed now: the parser is loaded, or `withoutParser` runs (texts needing it then throw). */
export function canParse(): boolean {
  return parser !== undefined || lazy;
}

/**
 * Runs `fn` where parsing plain-word texts needs no parser (`wisp check -- ls`, ADR 0040). When `fn` reaches a text
 * that does need it, ParserNotReady escapes and the parser is loaded and `fn` run again from the start: the answer is
 * always the one the parser-backed path gives.
 */
export async function withoutParser<T>(fn: () => T, load: () => Promise<void> = initParser): Promise<T> {
  if (!parser) {
    lazy = true;
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof ParserNotReady)) throw err;
    } finally {
      lazy = false;
    }
    await load();
  }
  return fn();
}

// Bounded parsing (issue #12.4, ADR 0019). tree-sitter's error recovery is super-linear on some shapes: 16 KiB of
// nested `( ls (` took 19 s, of `<<` 8 s. Short texts are always parsed (their worst case is milliseconds). Longer
// ones share one deadline per line, checked in tree-sitter's progress callback; the shapes known to be slow are not
// handed to it at all (deterministic, and tree-sitter may go a long stretch without a callback). Either way the text
// becomes an `unparsed` part: at least moderate, never run unasked (fail closed).
export const BOUNDED_LENGTH = 1024;
/**
 * Wall-clock budget for all the parsing of one line whose text is longer than BOUNDED_LENGTH. Generous on purpose:
 * an ordinary long line must be read the same at any load, so only a pathological one reaches it (ADR 0039).
 */
export const PARSE_BUDGET_MS = 1000;
/**
 * CPU budget for the same parsing (issue 12.4): on an idle machine the wall-clock budget alone let one hostile line
 * (16 KiB of `a|`) take seconds of CPU in tree-sitter's error recovery. An ordinary 16 KiB line parses in under 10 ms
 * idle, but CPU time counts 4-8 times more on a machine whose cores are all busy (measured: a 512-statement line took
 * 72-82 ms with a CPU hog on every core), so the budget leaves an ordinary line that margin (ADR 0039, amended).
 */
export const PARSE_CPU_BUDGET_MS = 150;
let deadline = Number.POSITIVE_INFINITY;
let cpuAtStart = 0;

/**
 * Monotonic milliseconds. Not `performance.now()`: its first use loads `node:perf_hooks`, which cost a fresh
 * `wisp check -- ls` 3–7 ms of its start (ADR 0066).
 */
function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * Starts one line's budget. Only texts longer than BOUNDED_LENGTH are ever timed, so a short line leaves the clocks
 * unread (reading them cost every short line about a tenth of a microsecond, a few % of its decision): should one
 * of its nested texts grow past the bound, the budget starts then.
 */
export function startBudget(line: string): void {
  if (line.length > BOUNDED_LENGTH) begin();
  else deadline = Number.NaN;
}

function begin(): void {
  deadline = nowMs() + PARSE_BUDGET_MS;
  cpuAtStart = cpuMs();
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function outOfTime(): boolean {
  if (Number.isNaN(deadline)) begin();
  return nowMs() > deadline || cpuMs() - cpuAtStart > PARSE_CPU_BUDGET_MS;
}

/** Shapes that make tree-sitter-bash's error recovery slow: many heredoc operators, deep parenthesis nesting. */
function knownSlowShape(src: string): boolean {
  let heredocs = 0;
  let depth = 0;
  let maxDepth = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 0x3c && src.charCodeAt(i + 1) === 0x3c) heredocs++;
    else if (c === 0x28) maxDepth = Math.max(maxDepth, ++depth);
    else if (c === 0x29) depth = Math.max(0, depth - 1);
  }
  return heredocs > 32 || maxDepth > 64;
}

/** tree-sitter's parse, bounded for long texts; null when it was not parsed (too slow a shape, or out of time). */
export function boundedParse(p: TsParser, src: string): ReturnType<TsParser['parse']> {
  if (src.length <= BOUNDED_LENGTH) return parseText(p, src);
  if (knownSlowShape(src) || outOfTime()) return null;
  // The callback's boolean cancels the parse (tree-sitter ≥ 0.25); the declared type says void.
  const progressCallback = outOfTime as unknown as (state: unknown) => void;
  const tree = p.parse(src, null, { progressCallback });
  // A cancelled parse is resumed by the parser's next call unless it is reset: the next line would be read with this
  // one's half-built state (it came out as one-letter parts with no error).
  if (tree === null) p.reset();
  return tree;
}
