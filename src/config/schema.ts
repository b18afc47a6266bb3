// The configuration contract: one zod schema, defaults for every key, used for loading, editing and `config schema`.
import { z } from 'zod';
import { CHANNEL_NAMES } from '../core/channels.js';
import { LEVELS, THRESHOLDS } from '../core/levels.js';
import { DEFAULT_DENY, LEGACY_DEFAULT_DENY } from '../core/deny-defaults.js';
import { linearRegexProblem } from '../util/linear-regex.js';
import { httpUrl } from './url.js';
import { DEFAULT_DOWNLOAD } from '../model/default-download.js';

/**
 * A pattern run on untrusted text: valid JavaScript syntax, and runnable by the linear-time engine (ADR 0017), so no
 * lookaround and no backreferences. The issue's path names the key (`policy.deny[2]: …`).
 */
const regex = z.string().superRefine((s, ctx) => {
  try {
    new RegExp(s);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'not a valid regular expression' });
    return;
  }
  const problem = linearRegexProblem(s);
  if (problem !== undefined) {
    ctx.addIssue({ code: 'custom', message: `pattern ${JSON.stringify(s)} cannot be used: ${problem} (wisp runs every pattern in linear time)` });
  }
});

/** Earlier versions' built-in regexes, written into a config file by `config set`, are now built-in checks: dropped. */
const denyList = z.preprocess(
  (v) => (Array.isArray(v) ? v.filter((p) => !(typeof p === 'string' && LEGACY_DEFAULT_DENY.includes(p))) : v),
  z.array(regex),
);

export const RuleSchema = z.strictObject({
  /** Regular expression matched against each part of a line (and the whole line). */
  match: regex.describe('Regular expression matched against each part of a command line'),
  /** Raises the part to at least this level; never lowers. */
  level: z.enum(LEVELS).optional().describe('Raise a matching part to at least this level'),
  /** Authored headline shown in the approval dialog (never interpolated). */
  ask: z.string().max(200).optional().describe('Authored question shown when a matching part needs approval'),
});
export type Rule = z.infer<typeof RuleSchema>;

export const ConfigSchema = z.strictObject({
  model: z.string().min(1).default('ollama:qwen3:8b').describe('Model as backend:NAME (ollama:, openai:, llama:, script:)'),
  models: z
    .strictObject({
      maxTokens: z.number().int().min(16).max(1048576).default(4096).describe('Longest model reply, in tokens (sent as max_tokens)'),
      contextSize: z.number().int().min(512).max(1048576).default(8192).describe('Context of the in-process llama: backend, in tokens'),
      threads: z.number().int().min(0).max(256).default(0).describe('CPU threads of the in-process llama: backend; 0 = automatic'),
      loadTimeoutSeconds: z.number().int().min(1).max(3600).default(120).describe('Bound on loading a GGUF file in-process'),
      download: z
        .strictObject({
          name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/).default(DEFAULT_DOWNLOAD.name).describe('File name under $WISP_HOME/models (without .gguf)'),
          url: httpUrl.default(DEFAULT_DOWNLOAD.url).describe('Where `wisp models pull` fetches the default model'),
          sha256: z.string().regex(/^[0-9a-f]{64}$/).optional().describe('Expected SHA-256 of the file; unset = the one the server announces'),
        })
        .prefault({}),
    })
    .prefault({}),
  approval: z
    .strictObject({
      threshold: z.enum(THRESHOLDS).default('moderate').describe('Ask when a part is at or above this level'),
      persistDays: z.number().int().min(1).max(365).default(30).describe('Days a project/always approval is kept'),
      classifier: z
        .enum(['rules', 'model'])
        .optional()
        .describe('rules, or model: after the rules a model rates each part and may only raise it; unset = rules (or useModel)'),
      classifierModel: z.string().min(1).optional().describe('Model spec for the classifier; unset = the session model'),
      classifierTimeoutSeconds: z.number().int().min(1).max(600).default(10).describe('Longest wait for a classifier verdict; then at least moderate'),
      useModel: z.boolean().optional().describe('Legacy spelling: true = classifier model, false = rules'),
    })
    .prefault({}),
  escalation: z
    .strictObject({
      channel: z.enum(CHANNEL_NAMES).optional().describe("Channel for escalations; unset = the face's default"),
      timeoutSeconds: z.number().int().min(0).max(86400).default(600).describe('Bounded wait for an answer; 0 = forever'),
      pendingSeconds: z.number().int().min(1).max(86400).default(600).describe('Lifetime of a pending escalation id'),
      outOfBand: z.boolean().default(true).describe('Under elicitation, also raise the queue; first answer wins'),
    })
    .prefault({}),
  sandbox: z
    .strictObject({
      enabled: z.boolean().default(true).describe('Run commands under bwrap/sandbox-exec'),
      allowNetwork: z.boolean().default(true).describe('Allow network access inside the sandbox'),
      writablePaths: z.array(z.string()).default([]).describe('Extra writable paths besides the launch dir and temp dir'),
      privateTmp: z.boolean().default(true).describe('Give approved commands a private, empty /tmp (host sockets there out of reach)'),
    })
    .prefault({}),
  policy: z
    .strictObject({
      deny: denyList
        .default([...DEFAULT_DENY])
        .describe("The operator's own regular expressions (linear-time subset); a match refuses the whole line. The built-in deny list is always on"),
      allow: z.array(regex).default([]).describe('When non-empty, every part must match one of these'),
      rules: z.array(RuleSchema).default([]).describe('Operator rules that raise levels and carry an authored ask'),
    })
    .prefault({}),
  commands: z
    .strictObject({
      timeoutSeconds: z.number().int().min(1).max(86400).default(60).describe('run_command timeout'),
      maxOutputBytes: z.number().int().min(256).max(1048576).default(4096).describe('Tail kept per stream'),
    })
    .prefault({}),
  ollama: z
    .strictObject({
      baseURL: httpUrl.default('http://127.0.0.1:11434'),
      timeoutSeconds: z.number().int().min(1).max(3600).default(120),
    })
    .prefault({}),
  openai: z
    .strictObject({
      baseURL: httpUrl.default('http://127.0.0.1:8080/v1'),
      timeoutSeconds: z.number().int().min(1).max(3600).default(120),
    })
    .prefault({}),
  audit: z
    .strictObject({
      maxFileBytes: z.number().int().min(4096).max(1073741824).default(10485760),
      keepFiles: z.number().int().min(1).max(100).default(5),
      recordOutput: z.boolean().default(false).describe('Keep command and tool output in the audit log (default: size and hash only)'),
    })
    .prefault({}),
  tools: z
    .strictObject({
      disabled: z.array(z.string()).default([]).describe('Tools the model never gets'),
      maxRounds: z.number().int().min(1).max(200).default(24).describe('Cap on tool rounds per prompt'),
    })
    .prefault({}),
  notifications: z
    .strictObject({
      enabled: z.boolean().default(true).describe('Desktop notification when a request is queued'),
      perMinute: z.number().int().min(0).max(60).default(5),
    })
    .prefault({}),
  mcp: z
    .strictObject({
      maxThreads: z.number().int().min(1).max(1024).default(32).describe('Threads kept; least recently used dropped'),
      taskKeepSeconds: z.number().int().min(1).max(86400).default(300).describe('How long a finished MCP task is kept for tasks/result'),
    })
    .prefault({}),
});

export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

export function defaultConfig(): Config {
  return ConfigSchema.parse({});
}
