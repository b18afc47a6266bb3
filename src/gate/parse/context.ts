// What the walk over one parsed text carries: the context a statement is reached in (depth, origin, keyword,
// inherited redirections, its pipeline), the collector of parts, and the part kept whole when it cannot be read.
import type { SyntaxNode } from './tree.js';
import type { Part, WordShape } from '../types.js';
import { MAX_PARTS } from '../limits.js';
import { roughSegments } from '../words.js';

/** How deep `sh -c '…'` / `eval …` bodies are re-parsed before the rest is kept whole as unparsed. */
export const MAX_DEPTH = 8;

export type Origin = Part['origin'];

export interface Ctx {
  readonly depth: number;
  readonly origin: Origin;
  readonly keyword: string | undefined;
  readonly redirects: readonly string[];
  readonly pipeline: Pipeline | undefined;
}

export interface Pipeline {
  readonly text: string;
  readonly stage: number;
}

/**
 * A context, always with its five keys in this order (ADR 0084): the walk makes one per statement it enters, and
 * spreading contexts of several shapes (`{ ...ctx, pipeline: undefined }`) was the walk's largest cost.
 */
export function makeCtx(depth: number, origin: Origin, keyword: string | undefined, redirects: readonly string[], pipeline: Pipeline | undefined): Ctx {
  return { depth, origin, keyword, redirects, pipeline };
}

/** The context of a line's top level. */
export function lineCtx(): Ctx {
  return makeCtx(0, 'line', undefined, [], undefined);
}

/** `ctx` outside any pipeline (a statement of a list, a block, a loop …). */
export function unpiped(ctx: Ctx): Ctx {
  return ctx.pipeline === undefined ? ctx : makeCtx(ctx.depth, ctx.origin, ctx.keyword, ctx.redirects, undefined);
}

/** `ctx` outside any pipeline, introduced by `keyword`. */
export function keyed(ctx: Ctx, keyword: string | undefined): Ctx {
  return makeCtx(ctx.depth, ctx.origin, keyword, ctx.redirects, undefined);
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

  private openers: Openers | undefined;

  /**
   * Whether src[start, end) holds a `$(`, a backtick, `<(` or `>(` (a command or process substitution may start
   * there). The text's openers are found once per text; asking the text with indexOf for every node of the walk
   * rescanned the rest of the line four times per node (ADR 0081).
   */
  maySubstitute(start: number, end: number): boolean {
    return within((this.openers ??= findOpeners(this.src)).substitution, start, end);
  }

  /** Whether src[start, end) holds a `$`, a backtick, `<(` or `>(` (an expansion or substitution may start there). */
  mayExpand(start: number, end: number): boolean {
    return within((this.openers ??= findOpeners(this.src)).expansion, start, end);
  }
}

/** Where each opener starts and ends in a text, in order: [start0, end0, start1, end1, …]. */
interface Openers {
  readonly substitution: readonly number[];
  readonly expansion: readonly number[];
}

function findOpeners(src: string): Openers {
  const substitution: number[] = [];
  const expansion: number[] = [];
  for (let i = 0; i < src.length; i++) {
    const ch = src.charCodeAt(i);
    if (ch === 0x24 /* $ */) {
      expansion.push(i, i + 1);
      if (src.charCodeAt(i + 1) === 0x28) substitution.push(i, i + 2);
    } else if (ch === 0x60 /* ` */) {
      expansion.push(i, i + 1);
      substitution.push(i, i + 1);
    } else if ((ch === 0x3c || ch === 0x3e) /* < > */ && src.charCodeAt(i + 1) === 0x28) {
      expansion.push(i, i + 2);
      substitution.push(i, i + 2);
    }
  }
  return { substitution, expansion };
}

/**
 * Whether an opener lies wholly in [start, end). Only the first opener at or after `start` needs checking: openers
 * are at most two characters long and start at distinct places, so a later one ends later still.
 */
function within(openers: readonly number[], start: number, end: number): boolean {
  let lo = 0;
  let hi = openers.length >> 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (openers[2 * mid]! < start) lo = mid + 1;
    else hi = mid;
  }
  return 2 * lo < openers.length && openers[2 * lo + 1]! <= end;
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
  // The segments' words in one list (a loop: `flat()` cost more than the reading itself).
  const words: string[] = [];
  for (const segment of roughSegments(text)) for (const w of segment) words.push(w);
  return newPart(text, words, undefined, [], 'unparsed', true, undefined, keyword, undefined, undefined);
}

/**
 * A part with all of Part's keys, in one order (ADR 0084): parts made key by key came in nine shapes, and every read of
 * a part's field by the deny scan and the classifier was then a lookup of many shapes. An absent key is `undefined`
 * (JSON leaves it out, so the parts print as before); `keyword` is kept only when not empty, as before.
 */
export function newPart(
  text: string,
  words: readonly string[],
  shapes: readonly WordShape[] | undefined,
  redirects: readonly string[],
  origin: Origin,
  unparsed: true | undefined,
  dynamicName: true | undefined,
  keyword: string | undefined,
  pipeline: string | undefined,
  pipeStage: number | undefined,
): Part {
  return {
    text,
    words,
    shapes,
    redirects,
    origin,
    unparsed,
    dynamicName,
    keyword: keyword ? keyword : undefined,
    pipeline,
    pipeStage,
  };
}
