// The static half of the gate for one line: parse, policy, classify every part. No stored approvals, no running.
import { homedir } from 'node:os';
import type { Config } from '../config/schema.js';
import { classifyPart } from './classify.js';
import { parseLine } from './parse.js';
import { checkPolicy } from './policy.js';
import { type Level, type Threshold, maxLevel, thresholdAsks } from '../core/levels.js';
import type { PartVerdict } from './types.js';

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
  const classifyOpts = {
    rules: config.policy.rules,
    cwd,
    line,
    home: opts.home ?? homedir(),
    contained: config.sandbox?.enabled === true,
    ...(opts.project !== undefined ? { project: opts.project } : {}),
  };
  const parts = parsed.parts.map((p) => classifyPart(p, classifyOpts));
  const level = parts.reduce<Level>((acc, p) => maxLevel(acc, p.level), 'safe');
  return policy.verdict === 'denied'
    ? { command: line, policy: 'denied', policyReason: policy.reason, ...(policy.rule !== undefined ? { policyRule: policy.rule } : {}), parts, level }
    : { command: line, policy: 'allowed', parts, level };
}

/** What the gate would do without stored answers: deny on policy, ask at or above the threshold, else run. */
export function decisionFor(a: LineAnalysis, threshold: Threshold): 'run' | 'ask' | 'deny' {
  if (a.policy === 'denied') return 'deny';
  return thresholdAsks(a.level, threshold) ? 'ask' : 'run';
}
