// Dotted key paths (`approval.threshold`) read, set and unset on a plain config object, which is never modified.
import { isPlainObject } from './merge.js';

export function getPath(obj: unknown, key: string): unknown {
  let cur: unknown = obj;
  for (const seg of key.split('.')) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[seg];
  }
  return cur;
}

/** A copy of `obj` with `key` set to `value`; sections on the way are created. */
export function setPath(obj: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out = structuredClone(obj);
  const segs = key.split('.');
  let cur = out;
  for (const seg of segs.slice(0, -1)) {
    if (!isPlainObject(cur[seg])) cur[seg] = {};
    cur = cur[seg] as Record<string, unknown>;
  }
  cur[segs[segs.length - 1] as string] = value;
  return out;
}

/** A copy of `obj` without `key`; a section left empty by the removal is removed too. */
export function unsetPath(obj: Record<string, unknown>, key: string): Record<string, unknown> {
  const out = structuredClone(obj);
  const segs = key.split('.');
  const chain: Array<Record<string, unknown>> = [out];
  let cur = out;
  for (const seg of segs.slice(0, -1)) {
    if (!isPlainObject(cur[seg])) return out;
    cur = cur[seg] as Record<string, unknown>;
    chain.push(cur);
  }
  delete cur[segs[segs.length - 1] as string];
  for (let i = chain.length - 1; i > 0; i--) {
    if (Object.keys(chain[i] as object).length > 0) break;
    delete (chain[i - 1] as Record<string, unknown>)[segs[i - 1] as string];
  }
  return out;
}
