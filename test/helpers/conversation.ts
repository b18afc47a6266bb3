// Builds a Conversation from real parts (gate, sandbox runner, script model) around a temp launch directory.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { ConfigSchema, type ConfigInput } from '../../src/config/schema.js';
import { PendingEscalations } from '../../src/escalation/pending.js';
import type { EscalationChannel } from '../../src/escalation/types.js';
import { Gate } from '../../src/gate/gate.js';
import { initParser } from '../../src/gate/parse.js';
import { ApprovalCache } from '../../src/gate/session-approvals.js';
import { createModel } from '../../src/model/index.js';
import type { ChatMessage, GenerateOptions, LanguageModel, ModelReply } from '../../src/model/types.js';
import { wispPaths } from '../../src/core/paths.js';
import { Conversation } from '../../src/session/conversation.js';
import { ALL_TOOLS } from '../../src/tools/registry.js';

export interface Rig {
  readonly dir: string;
  readonly home: string;
  readonly audit: MemoryAudit;
  readonly pending: PendingEscalations;
  readonly conversation: Conversation;
  /** What the model was given on each call (copies). */
  readonly seen: ChatMessage[][];
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A script model that also records the messages it was given. */
function recording(inner: LanguageModel, seen: ChatMessage[][]): LanguageModel {
  const wrap = (m: LanguageModel): LanguageModel => ({
    id: m.id,
    fork: () => wrap(m.fork()),
    generate: (messages: ChatMessage[], opts: GenerateOptions): Promise<ModelReply> => {
      seen.push(structuredClone(messages));
      return m.generate(messages, opts);
    },
  });
  return wrap(inner);
}

export async function makeRig(opts: {
  responses: unknown[];
  channel: EscalationChannel;
  config?: ConfigInput;
  thread?: string;
  pending?: PendingEscalations;
}): Promise<Rig> {
  await initParser();
  const dir = tempDir('wisp-conv-');
  const home = join(dir, '.wisp-home');
  mkdirSync(home, { mode: 0o700 });
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ responses: opts.responses }));
  const config = ConfigSchema.parse(opts.config ?? {});
  const audit = new MemoryAudit();
  const seen: ChatMessage[][] = [];
  const model = recording(createModel(`script:${script}`, config), seen);
  const pending = opts.pending ?? new PendingEscalations(config.escalation.pendingSeconds * 1000);
  const gate = new Gate({ config, audit, channel: opts.channel, sessionApprovals: new ApprovalCache(), source: 'test' });
  const conversation = new Conversation({
    model,
    tools: ALL_TOOLS,
    config,
    audit,
    gate,
    channel: opts.channel,
    pendingInquiries: pending,
    paths: wispPaths(home),
    launchDir: dir,
    session: 'sess-test',
    ...(opts.thread ? { thread: opts.thread } : {}),
  });
  return { dir, home, audit, pending, conversation, seen };
}

export const call = (name: string, args: unknown) => ({ toolCalls: [{ name, arguments: args }] });
export const run = (command: string) => call('run_command', { command });
