// The static half of the gate for one line: parse, policy, classify every part. No stored approvals, no running.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import { classifyPart } from './classify.js';
import { parseLine } from './parse.js';
import { checkPolicy } from './policy.js';
import { type Level, type Threshold, maxLevel, thresholdAsks } from '../core/levels.js';
import type { Part, PartVerdict } from './types.js';
import { isAssignment } from './words.js';

export interface LineAnalysis {
  command: string;
  policy: 'allowed' | 'denied';
  policyReason?: string;
  /** Which deny entry refused the line: a built-in name (`download-and-run`), `policy.deny[N]` or `policy.allow`. */
  policyRule?: string;
  parts: PartVerdict[];
  /** The highest part level (safe when there are no parts). Irrelevant once the policy denied the line. */
  level: Level;
}

export interface AnalyzeOptions {
  readonly home?: string;
  /** The project (launch directory), when the command may run elsewhere (`workingDirectory`); else `cwd`. */
  readonly project?: string;
}

/**
 * What analyzeLine reads of the configuration: the policy, and whether the sandbox is on. Without `sandbox`, runs
 * are not known to be contained, and reads whose files the words do not name are asked (ADR 0093).
 */
export type AnalyzeConfig = Pick<Config, 'policy'> & { readonly sandbox?: { readonly enabled: boolean } };

/** Parses, checks the policy and classifies each part. Needs `initParser()` to have finished. */
export function analyzeLine(line: string, config: AnalyzeConfig, cwd: string, opts: AnalyzeOptions = {}): LineAnalysis {
  if (line.trim() === '') return { command: line, policy: 'denied', policyReason: 'empty command', parts: [], level: 'safe' };
  const parsed = parseLine(line);
  const policy = checkPolicy(line, parsed.parts, config.policy);
  // The home folder once per line, not once per part (the classifier asks the system when it is not given one).
  const home = opts.home ?? homedir();
  let classifyOpts = { rules: config.policy.rules, cwd, line, home, contained: config.sandbox?.enabled === true, project: opts.project ?? cwd };
  const parts: PartVerdict[] = [];
  for (const p of parsed.parts) {
    parts.push(classifyPart(p, classifyOpts));
    // A part after `cd DIR` runs in DIR: its paths are read there (ADR 0100). Generous: a `cd` in a subshell or a
    // branch moves every later part too, which only names more places.
    const first = p.words[0] ?? '';
    const moved = CHANGES_DIRECTORY.has(first) || (first.includes('=') && isAssignment(first)) ? directoryAfter(p, classifyOpts.cwd, home) : undefined;
    // A line that sets CDPATH makes every `cd NAME` a look-up elsewhere.
    if (moved !== undefined) classifyOpts = { ...classifyOpts, cwd: line.includes('CDPATH') ? `/(where ${p.text.slice(0, 80)} leads)` : moved };
  }
  const level = parts.reduce<Level>((acc, p) => maxLevel(acc, p.level), 'safe');
  return policy.verdict === 'denied'
    ? { command: line, policy: 'denied', policyReason: policy.reason, ...(policy.rule !== undefined ? { policyRule: policy.rule } : {}), parts, level }
    : { command: line, policy: 'allowed', parts, level };
}

/** Builtins that change the shell's directory for the commands after them. */
const CHANGES_DIRECTORY: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd', 'builtin', 'command']);

/**
 * The directory a `cd`/`pushd` part leaves the shell in, or undefined for another command. One wisp cannot know
 * (`cd "$X"`, `cd -`, `popd`, `CDPATH=… cd x`) is named by its words under `/`, so it is outside the project and no
 * system place.
 */
function directoryAfter(part: Part, cwd: string, home: string): string | undefined {
  let at = 0;
  while (at < part.words.length && isAssignment(part.words[at]!)) at++;
  if (part.words[at] === 'builtin' || part.words[at] === 'command') at++;
  const words = part.words.slice(at);
  const exe = words[0];
  if (exe !== 'cd' && exe !== 'pushd' && exe !== 'popd') return undefined;
  const unknown = `/(where ${part.text.slice(0, 80)} leads)`;
  // `CDPATH=… cd x` looks x up elsewhere; popd returns to a place an earlier line chose.
  if (exe === 'popd' || part.words.slice(0, at).some((w) => w.startsWith('CDPATH='))) return unknown;
  let i = 1;
  while (i < words.length && /^-[LPe@]+$/.test(words[i]!)) i++;
  if (words[i] === '--') i++;
  const target = words[i];
  const shape = part.shapes?.[at + i] ?? (/[$`*?[{]/.test(target ?? '') ? 'dynamic' : 'literal');
  if (target === undefined) return exe === 'cd' ? home : unknown;
  if (shape !== 'literal' || target === '-' || /^[+-]\d/.test(target)) return unknown;
  if (target === '~' || target.startsWith('~/')) return resolve(home, target.slice(2));
  if (target.startsWith('~')) return unknown;
  return resolve(cwd, target);
}

/** What the gate would do without stored answers: deny on policy, ask at or above the threshold, else run. */
export function decisionFor(a: LineAnalysis, threshold: Threshold): 'run' | 'ask' | 'deny' {
  if (a.policy === 'denied') return 'deny';
  return thresholdAsks(a.level, threshold) ? 'ask' : 'run';
}
