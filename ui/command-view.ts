// How an approval dialog shows a command and the line it belongs to (issue 14 point 5): which part of how many it
// is, where it sits in the line, whitespace runs collapsed and flagged (`⟨990 spaces⟩`), and whether anything had to
// be cut — a cut command cannot be approved until it has been seen whole. Pure; ApprovalDialog draws it.
import { visible } from '../src/core/visible.js';
import { parseLine, parserReady } from '../src/gate/parse.js';

/** The most characters of a command or line drawn in the dialog itself; more is cut, and `v` shows it whole. */
export const SHOWN_MAX = 400;
/** Bound for the whole-text viewer (a line past this is refused by the gate long before). */
const WHOLE_MAX = 1_000_000;

export interface Segment {
  readonly text: string;
  /** The part the dialog asks about. */
  readonly mark: boolean;
}

export interface CommandView {
  /** 1-based position of the command among the line's parts, when the line has more than one. */
  readonly part?: { readonly index: number; readonly count: number };
  /** The command, made visible with runs collapsed, cut at SHOWN_MAX. */
  readonly command: string;
  /** The whole line in segments (the part marked), made visible with runs collapsed; cut at SHOWN_MAX overall. */
  readonly line: readonly Segment[];
  /** Something was cut: the command must be seen whole (`v`) before it can be approved. */
  readonly cut: boolean;
}

const shown = (text: string, max: number) => visible(text, { collapseRuns: true, maxChars: max });

export function commandView(command: string, line: string): CommandView {
  const part = locate(command, line);
  const commandFull = shown(command, WHOLE_MAX);
  let cut = commandFull.length > SHOWN_MAX;
  const at = part?.offset ?? line.indexOf(command);
  const pieces: Segment[] =
    at >= 0 && line !== command
      ? [
          { text: line.slice(0, at), mark: false },
          { text: command, mark: true },
          { text: line.slice(at + command.length), mark: false },
        ]
      : [{ text: line, mark: line === command }];
  let budget = SHOWN_MAX;
  const segments: Segment[] = [];
  for (const p of pieces) {
    if (p.text === '') continue;
    const full = shown(p.text, WHOLE_MAX);
    if (full.length > budget) cut = true;
    segments.push({ text: shown(p.text, Math.max(0, budget)), mark: p.mark });
    budget -= Math.min(full.length, budget);
  }
  return {
    ...(part ? { part: { index: part.index, count: part.count } } : {}),
    command: shown(command, SHOWN_MAX),
    line: segments,
    cut,
  };
}

/** The whole command and line for the viewer, made visible with runs collapsed, never cut. */
export function wholeText(command: string, line: string): string {
  const c = shown(command, WHOLE_MAX);
  return line === command ? c : `${c}\n\nwhole line:\n${shown(line, WHOLE_MAX)}`;
}

/** Which part of the line the command is, and where it starts — by the gate's own parser, when it is loaded. */
function locate(command: string, line: string): { index: number; count: number; offset: number } | undefined {
  if (line === command || !parserReady()) return undefined;
  let parts: readonly { text: string }[];
  try {
    parts = parseLine(line).parts;
  } catch {
    return undefined;
  }
  if (parts.length < 2) return undefined;
  let from = 0;
  let found: { index: number; count: number; offset: number } | undefined;
  parts.forEach((p, i) => {
    const offset = line.indexOf(p.text, from);
    if (offset >= 0) from = offset + p.text.length;
    if (found === undefined && p.text === command) found = { index: i + 1, count: parts.length, offset };
  });
  return found;
}

/** Splits text into rows of at most `width` characters (hard wrap; the text is already made visible). */
export function wrapRows(text: string, width: number): string[] {
  const w = Math.max(10, width);
  const rows: string[] = [];
  for (const line of text.split('\n')) {
    const cps = [...line];
    if (cps.length === 0) rows.push('');
    for (let i = 0; i < cps.length; i += w) rows.push(cps.slice(i, i + w).join(''));
  }
  return rows;
}
