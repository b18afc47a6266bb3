// What the walk over one parsed text carries: the context a statement is reached in (depth, origin, keyword,
// inherited redirections, its pipeline), the collector of parts, and the part kept whole when it cannot be read.
import type { SyntaxNode } from './tree.js';
import type { Part } from '../types.js';
import { MAX_PARTS } from '../limits.js';
import { roughSegments } from '../words.js';

/** How deep `sh -c '…'` / `eval …` bodies are re-parsed before the rest is kept whole as unparsed. */
export const MAX_DEPTH = 8;

export type Origin = Part['origin'];

export interface Ctx {
  readonly depth: number;
  readonly origin: Origin;
  readonly keyword?: string;
  readonly redirects: readonly string[];
  readonly pipeline?: { readonly text: string; readonly stage: number };
}

/** Parses a nested body (`sh -c '…'`, `eval …`) with the line's parser and appends its parts. */
export type ParseNested = (source: string, ctx: Ctx, out: Part[]) => void;

export class Collector {
  readonly parts: Part[] = [];
  /**
   * @param clean the tree has no ERROR or MISSING node anywhere (the root's hasError is false), so the per-node
   * checks can be skipped.
   * @param nested parses a body the command runs (the walk does not import the parser's entry).
   */
  constructor(
    readonly src: string,
    readonly clean: boolean,
    readonly nested: ParseNested,
  ) {}

  slice(n: SyntaxNode): string {
    return this.src.slice(n.startIndex, n.endIndex);
  }
}

/** More than MAX_PARTS statements: the line becomes one unparsed part (at least moderate). */
export class TooManyParts extends Error {}

let statements = 0;

/** Starts counting a line's statements. */
export function startCounting(): void {
  statements = 0;
}

/** Counts one statement; throws TooManyParts past MAX_PARTS. */
export function countStatement(): void {
  if (++statements > MAX_PARTS) throw new TooManyParts();
}

export function unparsedPart(raw: string, keyword?: string): Part {
  // Surrounding blanks are the parser's error span, not part of what a person should read or approve.
  const text = raw.trim() === '' ? raw : raw.trim();
  const words = roughSegments(text).flat();
  return {
    text,
    words,
    redirects: [],
    origin: 'unparsed',
    unparsed: true,
    ...(keyword ? { keyword } : {}),
  };
}
