// Finds the program that actually runs: skips `VAR=x` prefixes and wrappers (`env`, `nice`, `timeout 5`, `sudo -u x`,
// `xargs -n1` …) with their options. Policy, classifier and pattern all use this one reading of a command.
import { shortcuts } from './shortcuts.js';
import { basename, isAssignment } from './words.js';

interface WrapperSpec {
  /** Short options that take a value (`-u root` or `-uroot`). */
  readonly shortValue?: string;
  /** Long options that take a value when written without `=`. */
  readonly longValue?: readonly string[];
  /** Operands to skip after the options before the command (timeout's duration). */
  readonly operands?: number;
  /** Options that mean "no command follows" (`command -v`, `ionice -p`). */
  readonly stop?: readonly string[];
  /** Whether `NAME=value` words after the options are environment settings (env, sudo). */
  readonly assignments?: boolean;
  /** Options that accept a value only when attached (`xargs -i{}`, `-l5`): never consume the next word. */
  readonly attachedOnly?: string;
}

const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  env: { shortValue: 'uCSP', longValue: ['--unset', '--chdir', '--split-string'], assignments: true },
  nice: { shortValue: 'n', longValue: ['--adjustment'] },
  nohup: {},
  time: { shortValue: 'fo', longValue: ['--format', '--output'] },
  timeout: { shortValue: 'sk', longValue: ['--signal', '--kill-after'], operands: 1 },
  stdbuf: { shortValue: 'ioe', longValue: ['--input', '--output', '--error'] },
  ionice: { shortValue: 'cnpPu', longValue: ['--class', '--classdata', '--pid', '--pgid', '--uid'], stop: ['-p', '-P', '-u', '--pid', '--pgid', '--uid'] },
  xargs: {
    shortValue: 'IadELnPs',
    attachedOnly: 'ile',
    longValue: ['--arg-file', '--delimiter', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
  },
  command: { stop: ['-v', '-V'] },
  exec: { shortValue: 'a' },
  builtin: {},
  caffeinate: { shortValue: 'tw' },
  chronic: {},
  setsid: {},
  unbuffer: {},
  nocorrect: {},
  noglob: {},
  watch: { shortValue: 'nq', longValue: ['--interval', '--equexit'] },
  sudo: {
    shortValue: 'CDghpRrTtUu',
    longValue: ['--close-from', '--chdir', '--group', '--host', '--prompt', '--chroot', '--role', '--type', '--command-timeout', '--other-user', '--user'],
    stop: ['-l', '-v', '-k', '-K', '-V', '-e', '--list', '--validate', '--edit'],
    assignments: true,
  },
  doas: { shortValue: 'uC', stop: ['-L'] },
  pkexec: { longValue: ['--user'] },
  run0: { longValue: ['--user', '--unit', '--property', '--description', '--slice', '--nice', '--chdir', '--setenv'] },
  // Multi-call programs: the first operand names the tool that runs (`busybox rm -rf ~` is rm).
  busybox: {},
  toybox: {},
};

/** Wrapper names whose presence means the program is someone else: exact-text patterns are used for these. */
/**
 * The same rows by name. A `Map` finds a name the model wrote (a fresh string) by its hash; an object's keyed lookup
 * first looks the string up among the engine's interned names, which showed in profiles (ADR 0074).
 */
const WRAPPER_ROWS: ReadonlyMap<string, WrapperSpec> = new Map(Object.entries(WRAPPERS));

export const PRIVILEGE_WRAPPERS: ReadonlySet<string> = new Set(['sudo', 'doas', 'pkexec', 'run0']);

export function isWrapper(name: string): boolean {
  return WRAPPER_ROWS.has(name);
}

export interface ResolvedCommand {
  /** Leading `NAME=value` words (also those given to env/sudo). */
  readonly assignments: readonly string[];
  /** Wrapper programs in the order they appear (basenames, lower-case). */
  readonly wrappers: readonly string[];
  /** Index in `words` where each layer's program word starts (wrappers, then the executable). */
  readonly layers: readonly number[];
  /** The word naming the executable, as unquoted (may be a path), or undefined when none. */
  readonly programWord: string | undefined;
  /** Lower-cased basename of the executable; a wrapper's own name when nothing follows it; '' when nothing runs. */
  readonly executable: string;
  /** The words after the program word. */
  readonly args: readonly string[];
  /** Words spliced in by `env -S "…"` replace the original ones, so indexes refer to this list. */
  readonly words: readonly string[];
}

/** Splits `env -S 'a b'` strings the way env does for the simple cases (whitespace, no nested quoting). */
function splitEnvString(s: string): string[] {
  return s.split(/\s+/).filter((w) => w.length > 0);
}

/** Returns the index of the first word after a wrapper's options (and operands), splicing `env -S`. */
function skipOptions(name: string, spec: WrapperSpec, words: string[], start: number): { next: number; stop: boolean } {
  let i = start;
  while (i < words.length) {
    const w = words[i]!;
    if (w === '--') {
      i++;
      break;
    }
    if (name === 'nice' && /^-\d+$/.test(w)) {
      i++;
      continue;
    }
    if (w === '-' && name === 'env') {
      i++;
      continue;
    }
    if (!w.startsWith('-') || w === '-') break;
    if (spec.stop?.includes(w) || spec.stop?.some((s) => /^-[A-Za-z]$/.test(s) && /^-[A-Za-z]+$/.test(w) && w.includes(s[1]!))) {
      return { next: i, stop: true };
    }
    if (w.startsWith('--')) {
      const [opt, value] = splitLong(w);
      if (name === 'env' && opt === '--split-string') {
        const s = value ?? words[i + 1] ?? '';
        words.splice(i, value === undefined ? 2 : 1, ...splitEnvString(s));
        continue;
      }
      i += value === undefined && spec.longValue?.includes(opt) ? 2 : 1;
      continue;
    }
    // A cluster of short options: the first value-taking letter takes the rest of the word, or the next word.
    let consumedNext = false;
    for (let k = 1; k < w.length; k++) {
      const letter = w[k]!;
      if (spec.attachedOnly?.includes(letter)) break;
      if (spec.shortValue?.includes(letter)) {
        const rest = w.slice(k + 1);
        if (name === 'env' && letter === 'S') {
          const s = rest.length > 0 ? rest : (words[i + 1] ?? '');
          words.splice(i, rest.length > 0 ? 1 : 2, ...splitEnvString(s));
          i--; // re-read from the spliced words
          consumedNext = false;
        } else if (rest.length === 0) {
          consumedNext = true;
        }
        break;
      }
    }
    i += consumedNext ? 2 : 1;
  }
  const operands = spec.operands ?? 0;
  return { next: Math.min(i + operands, words.length), stop: false };
}

function splitLong(w: string): [string, string | undefined] {
  const eq = w.indexOf('=');
  return eq < 0 ? [w, undefined] : [w.slice(0, eq), w.slice(eq + 1)];
}

/**
 * The last few readings, by the identity of the word list: parse, policy, classifier and pattern each ask about the
 * same `part.words` of a line (ADR 0074). A list is read from memory only while it still holds the same words (a
 * caller may reuse a buffer), and a new parse of the same line makes new lists, so nothing carries from one line to
 * the next. A short ring compared by identity costs less than a WeakMap, whose upkeep showed in the collector.
 */
const RING = 16;
const ringInput: (readonly string[] | undefined)[] = new Array<readonly string[] | undefined>(RING).fill(undefined);
const ringSnapshot: (readonly string[] | undefined)[] = new Array<readonly string[] | undefined>(RING).fill(undefined);
const ringResult: (ResolvedCommand | undefined)[] = new Array<ResolvedCommand | undefined>(RING).fill(undefined);
let ringNext = 0;

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Reads `VAR=x … wrapper [opts] … program args` and names the program that runs. Its result is shared: never change it. */
export function resolveCommand(input: readonly string[]): ResolvedCommand {
  if (!shortcuts.on) return readCommand(input);
  // Newest first: the classifier asks about a list soon after the deny scan or its own view did.
  for (let n = 1; n <= RING; n++) {
    const k = (ringNext - n + RING) % RING;
    if (ringInput[k] === input && sameWords(ringSnapshot[k]!, input)) return ringResult[k]!;
  }
  const result = readCommand(input);
  const at = ringNext;
  ringNext = (at + 1) % RING;
  ringInput[at] = input;
  // Its own copy of the words is the snapshot, unless `env -S` spliced them.
  ringSnapshot[at] = sameWords(result.words, input) ? result.words : [...input];
  ringResult[at] = result;
  return result;
}

function readCommand(input: readonly string[]): ResolvedCommand {
  const words = [...input];
  const assignments: string[] = [];
  const wrappers: string[] = [];
  const layers: number[] = [];
  let i = 0;
  let allowAssignments = true;
  // The lower-case basename of words[nameAt], kept for the executable.
  let name = '';
  let nameAt = -1;
  // Bounded: each round consumes at least one word.
  for (let guard = 0; guard <= words.length + 1; guard++) {
    while (allowAssignments && i < words.length && isAssignment(words[i]!)) assignments.push(words[i++]!);
    if (i >= words.length) break;
    name = basename(words[i]!).toLowerCase();
    nameAt = i;
    const spec = WRAPPER_ROWS.get(name);
    if (spec === undefined) break;
    const at = i;
    const { next, stop } = skipOptions(name, spec, words, i + 1);
    if (stop || next >= words.length) {
      // Nothing follows (bare `env`, `sudo -l`, `command -v x`): the wrapper itself is what runs.
      layers.push(at);
      return { assignments, wrappers, layers, programWord: words[at], executable: name, args: words.slice(at + 1), words };
    }
    wrappers.push(name);
    layers.push(at);
    i = next;
    allowAssignments = spec.assignments === true;
  }
  if (i >= words.length) {
    const lastWrapper = wrappers.pop();
    if (lastWrapper !== undefined) {
      // `env FOO=1`, `nice --`: the last wrapper has nothing to run, so it is what runs.
      const at = layers[layers.length - 1]!;
      return { assignments, wrappers, layers, programWord: words[at], executable: lastWrapper, args: words.slice(at + 1), words };
    }
    return { assignments, wrappers, layers, programWord: undefined, executable: '', args: [], words };
  }
  layers.push(i);
  const programWord = words[i]!;
  return {
    assignments,
    wrappers,
    layers,
    programWord,
    executable: nameAt === i ? name : basename(programWord).toLowerCase(),
    args: words.slice(i + 1),
    words,
  };
}
