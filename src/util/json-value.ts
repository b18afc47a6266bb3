// Any value made writable as JSON: what a caller puts in an audit event's details may hold a bigint, a cycle, an
// Error, a Map or a throwing getter, and the line must still be written (a write that fails stops the action).
import { errnoCode } from './atomic.js';

const MAX_DEPTH = 40;

/**
 * A copy of `value` that JSON.stringify can always write: bigint → decimal string, undefined/function/symbol
 * members dropped (undefined in arrays → null, as JSON does), a cycle → "[Circular]", Error → {name, message},
 * Map/Set → object/array, a throwing toJSON → "[unserializable]", nesting past 40 levels → "[too deep]".
 */
export function toJsonSafe(value: unknown): unknown {
  return safe(value, new Set<object>(), 0);
}

function safe(value: unknown, ancestors: Set<object>, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return null;
  const obj = value as object;
  if (ancestors.has(obj)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  ancestors.add(obj);
  try {
    if (obj instanceof Error) {
      const out: Record<string, unknown> = { name: obj.name, message: obj.message };
      const code = errnoCode(obj);
      if (code !== undefined) out.code = code;
      return out;
    }
    if (obj instanceof Map) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of obj) {
        const s = safe(v, ancestors, depth + 1);
        if (s !== undefined) out[String(k)] = s;
      }
      return out;
    }
    if (obj instanceof Set) return [...obj].map((v) => safe(v, ancestors, depth + 1) ?? null);
    if (Array.isArray(obj)) return obj.map((v) => safe(v, ancestors, depth + 1) ?? null);
    const toJSON = (obj as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      try {
        return safe(toJSON.call(obj), ancestors, depth + 1);
      } catch {
        return '[unserializable]';
      }
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(obj)) {
      let v: unknown;
      try {
        v = (obj as Record<string, unknown>)[key];
      } catch {
        v = '[unserializable]'; // a throwing getter
      }
      const s = safe(v, ancestors, depth + 1);
      if (s !== undefined) out[key] = s;
    }
    return out;
  } finally {
    ancestors.delete(obj);
  }
}
