// Reads a program's arguments against its table row, the way getopt_long (and git's parse-options) would: short
// clusters with attached or separate values, `--long=value` and `--long value`, abbreviations only where the row
// allows them, `--` ending the options, and permutation (options after operands) unless the row says otherwise.
// Anything the row does not list is a refusal with a reason: the caller rates the command "not safe".
import { isAbsolute, relative, resolve } from 'node:path';
import type { WordShape } from '../types.js';
import type { ParsedArgs, ParsedOption, ProgramSpec, TableEnv, ValueKind } from './spec.js';

export type ArgsResult =
  | { readonly ok: true; readonly parsed: ParsedArgs; readonly sub?: { readonly name: string; readonly spec: ProgramSpec; readonly result: ArgsResult } }
  | { readonly ok: false; readonly reason: string };

const fail = (reason: string): ArgsResult => ({ ok: false, reason });

const NUMBER = /^[+-]?\d{1,18}[A-Za-z]{0,3}$/;

export function checkValue(kind: ValueKind, value: string, env: TableEnv): string | undefined {
  if (kind === 'text' || kind === 'path' || kind === 'pair') return undefined;
  if (kind === 'num') return NUMBER.test(value) ? undefined : `expects a number, not ${value}`;
  if (kind === 'inside') {
    const p = value.startsWith('~') ? undefined : isAbsolute(value) ? resolve(value) : resolve(env.cwd, value);
    if (p === undefined) return `points outside the project (${value})`;
    const rel = relative(env.project ?? env.cwd, p);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)) ? undefined : `points outside the project (${value})`;
  }
  if (typeof kind === 'function') return kind(value, env);
  return kind.includes(value) ? undefined : `does not accept the value ${value}`;
}

/** The shape to record for a value that names a file (kinds `path` and `inside`), else undefined. */
function fileShape(kind: ValueKind | null, shape: WordShape): WordShape | undefined {
  return kind === 'path' || kind === 'inside' ? shape : undefined;
}

/** A word the shell turns into file names could turn into an option (a file named `--pre=./x`). */
function leadingGlob(word: string): boolean {
  const c = word[0];
  return c === '*' || c === '?' || c === '[';
}

/**
 * A row's own entry for `key`. Each record (a row's long options, its sub-commands) is read into a Map on first use:
 * the key is a word the model wrote, a fresh string, which a Map finds by its hash, while an object's keyed lookup
 * first looks it up among the engine's interned names (ADR 0074). Own entries only, as `hasOwnProperty` gave.
 */
const recordMaps = new WeakMap<object, ReadonlyMap<string, unknown>>();
function own<V>(record: Readonly<Record<string, V>> | undefined, key: string): V | undefined {
  if (record === undefined) return undefined;
  let map = recordMaps.get(record) as ReadonlyMap<string, V> | undefined;
  if (map === undefined) {
    map = new Map(Object.entries(record));
    recordMaps.set(record, map);
  }
  return map.get(key);
}

function resolveLong(spec: ProgramSpec, name: string): { name: string; kind: ValueKind | null; optional: boolean } | undefined {
  const long = own(spec.long, name);
  if (long !== undefined) return { name, kind: long, optional: false };
  const optional = own(spec.optionalLong, name);
  if (optional !== undefined) return { name, kind: optional, optional: true };
  if (!spec.abbreviations || name.length < 3) return undefined;
  const all = [...Object.keys(spec.long ?? {}), ...Object.keys(spec.optionalLong ?? {})];
  const matches = all.filter((k) => k.startsWith(name));
  return matches.length === 1 ? resolveLong({ ...spec, abbreviations: false }, matches[0]!) : undefined;
}

/** Parses `args` (with their shapes) against a row. Never throws. */
export function parseArgs(program: string, spec: ProgramSpec, args: readonly string[], shapes: readonly WordShape[], env: TableEnv): ArgsResult {
  const options: ParsedOption[] = [];
  const operands: string[] = [];
  const operandShapes: WordShape[] = [];
  let ended = spec.noOptions === true;
  const permute = spec.permute !== false && spec.subcommands === undefined;
  const unknown = (o: string) => fail(`uses an option wisp does not know to be read-only for ${program}: ${o}`);

  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const shape = shapes[i] ?? 'dynamic';
    if (shape === 'dynamic') return fail('uses an expansion or substitution');
    if (!ended && w === '--') {
      ended = true;
      continue;
    }
    if (!ended && w.startsWith('-') && w !== '-') {
      // A glob can only turn into words that start with its literal prefix: inside a long option's value it can
      // change the value, never the option.
      const eqAt = w.indexOf('=');
      if (shape === 'glob' && !(w.startsWith('--') && eqAt > 0 && !/[*?[]/.test(w.slice(0, eqAt)))) return fail('a glob in an option');
      if (w.startsWith('--')) {
        const eq = w.indexOf('=');
        const given = eq < 0 ? w : w.slice(0, eq);
        const long = resolveLong(spec, given);
        if (long === undefined) return unknown(given);
        let value = eq < 0 ? undefined : w.slice(eq + 1);
        if (long.kind === null) {
          if (value !== undefined) return fail(`gives a value to ${long.name}, which takes none`);
        } else if (long.kind === 'pair') {
          if (value !== undefined || i + 2 >= args.length) return fail(`${long.name} needs two words`);
          if ((shapes[i + 1] ?? 'dynamic') !== 'literal' || (shapes[i + 2] ?? 'dynamic') !== 'literal') return fail(`the values of ${long.name} are not literal words`);
          options.push({ name: long.name, value: `${args[i + 1]!}\n${args[i + 2]!}` });
          i += 2;
          continue;
        } else if (value === undefined && !long.optional) {
          if (i + 1 >= args.length) return fail(`${long.name} needs a value`);
          if ((shapes[i + 1] ?? 'dynamic') !== 'literal') return fail(`the value of ${long.name} is not a literal word`);
          value = args[++i]!;
        }
        if (value !== undefined && long.kind !== null) {
          const bad = checkValue(long.kind, value, env);
          if (bad !== undefined) return fail(`${long.name} ${bad}`);
        }
        const file = fileShape(long.kind, eq < 0 ? 'literal' : shape);
        options.push(value === undefined ? { name: long.name } : { name: long.name, value, ...(file ? { file } : {}) });
        continue;
      }
      if (spec.numericOption && /^-\d{1,9}$/.test(w)) {
        options.push({ name: '-#', value: w.slice(1) });
        continue;
      }
      for (let k = 1; k < w.length; k++) {
        const letter = w[k]!;
        if (spec.flags?.includes(letter)) {
          options.push({ name: `-${letter}` });
          continue;
        }
        const kind = spec.values !== undefined && Object.prototype.hasOwnProperty.call(spec.values, letter) ? spec.values[letter]! : undefined;
        if (kind === undefined) return unknown(`-${letter}`);
        let value = w.slice(k + 1);
        let valueShape = shape;
        if (value === '') {
          if (i + 1 >= args.length) return fail(`-${letter} needs a value`);
          if ((shapes[i + 1] ?? 'dynamic') !== 'literal') return fail(`the value of -${letter} is not a literal word`);
          value = args[++i]!;
          valueShape = 'literal';
        }
        const bad = checkValue(kind, value, env);
        if (bad !== undefined) return fail(`-${letter} ${bad}`);
        const file = fileShape(kind, valueShape);
        options.push({ name: `-${letter}`, value, ...(file ? { file } : {}) });
        break;
      }
      continue;
    }
    // An operand.
    // A row with no options of wisp's (test, printf, tar, find, ip …) still hands its words to a program that reads
    // options or expressions of its own: a file named `-v` or `--checkpoint-action=exec=…` must not be able to join.
    if (shape === 'glob' && (!ended || spec.noOptions === true) && leadingGlob(w) && spec.globSafe !== true) {
      return fail('a glob that could expand to a file name read as an option');
    }
    if (spec.subcommands !== undefined && operands.length === 0) {
      const sub = own(spec.subcommands, w);
      if (sub === undefined || shape !== 'literal') return fail(`${program} ${w} is not a known read-only sub-command`);
      const result = parseArgs(`${program} ${w}`, sub, args.slice(i + 1), shapes.slice(i + 1), env);
      if (!result.ok) return result;
      return { ok: true, parsed: { options, operands: [w] }, sub: { name: w, spec: sub, result } };
    }
    operands.push(w);
    operandShapes.push(shape);
    if (!permute) ended = true;
  }
  if (spec.subcommands !== undefined && spec.bareAllowed !== true) return fail(`${program} without a sub-command`);
  const min = spec.operands?.min ?? 0;
  const max = spec.operands?.max ?? Infinity;
  if (operands.length < min) return fail(`${program} needs ${min} operand${min === 1 ? '' : 's'}`);
  if (operands.length > max) return fail(`${program} with more than ${max} operand${max === 1 ? '' : 's'} (a later one may be written)`);
  const parsed = { options, operands, operandShapes };
  if (spec.check) {
    const bad = spec.check(parsed, env);
    if (bad !== undefined) return fail(bad);
  }
  return { ok: true, parsed };
}
