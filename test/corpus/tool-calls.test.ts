// Corpus: bad tool calls from a model (test/corpus/tool-calls.json), handed to the real tool loop, gate and sandbox
// exactly as a backend hands them over (a stub model: the script format itself refuses some of these shapes). The
// channel approves everything (auto), so only validation stands between a bad call and a run: each must come back
// as an error the model reads, audited, with nothing run or written.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { defaultConfig } from '../../src/config/schema.js';
import { AutoChannel } from '../../src/escalation/channels.js';
import { Gate } from '../../src/gate/gate.js';
import { initParser } from '../../src/gate/parse.js';
import { ApprovalCache } from '../../src/gate/session-approvals.js';
import type { ChatMessage, LanguageModel, ModelReply } from '../../src/model/types.js';
import { wispPaths } from '../../src/core/paths.js';
import { Conversation } from '../../src/session/conversation.js';
import { ALL_TOOLS } from '../../src/tools/registry.js';
import { loadCorpus, title } from './load.js';

/** A model that asks for one tool call, then answers "sorry"; it records what it was given. */
function stubModel(name: string, args: unknown, seen: ChatMessage[][]): LanguageModel {
  let n = 0;
  const model: LanguageModel = {
    id: 'stub',
    fork: () => model,
    generate: async (messages): Promise<ModelReply> => {
      seen.push(structuredClone(messages));
      return n++ === 0 ? { text: '', toolCalls: [{ id: 'call_1', name, arguments: args }] } : { text: 'sorry', toolCalls: [] };
    },
  };
  return model;
}

async function makeStubRig(name: string, args: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'wisp-corpus-tool-'));
  const home = join(dir, '.wisp-home');
  mkdirSync(home, { mode: 0o700 });
  const config = defaultConfig();
  const audit = new MemoryAudit();
  const seen: ChatMessage[][] = [];
  const channel = new AutoChannel();
  const gate = new Gate({ config, audit, channel, sessionApprovals: new ApprovalCache(), source: 'test' });
  const conversation = new Conversation({
    model: stubModel(name, args, seen),
    tools: ALL_TOOLS,
    config,
    audit,
    gate,
    channel,
    paths: wispPaths(home),
    launchDir: dir,
    session: 'corpus',
  });
  return { dir, audit, seen, conversation };
}

beforeAll(async () => {
  await initParser();
});

interface ToolCase {
  readonly name: string;
  readonly tool: string;
  readonly arguments?: unknown;
  readonly rawArguments?: string;
  readonly message: string;
}

const { cases } = loadCorpus<{ cases: ToolCase[] }>('tool-calls.json');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('tool-call corpus', () => {
  it('has the cases the issue asks for', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  it.each(cases.map((c) => [title(c.name), c] as const))('%s', async (_n, c) => {
    const args = c.rawArguments ?? c.arguments;
    const rig = await makeStubRig(c.tool, args);
    dirs.push(rig.dir);
    const result = await rig.conversation.turn('go');
    expect(result.text).toBe('sorry'); // the loop went on: the model read the error and answered
    const toolMessage = rig.seen[1]!.filter((m): m is Extract<ChatMessage, { role: 'tool' }> => m.role === 'tool').at(-1)!;
    expect(toolMessage.content).toMatch(/^error: /);
    expect(toolMessage.content).toMatch(new RegExp(c.message));
    expect(rig.audit.ofKind('tool.call')).toHaveLength(1);
    const res = rig.audit.ofKind('tool.result');
    expect(res).toHaveLength(1);
    expect(res[0]!.details).toMatchObject({ isError: true });
    // Nothing ran: no outcome, or (a line the OS refuses to start, e.g. with a NUL byte) one that says it never started.
    for (const e of rig.audit.ofKind('command.outcome')) expect(e.details).toMatchObject({ exitStatus: null, error: expect.any(String) });
    expect(rig.audit.ofKind('file.write')).toHaveLength(0);
    expect(result.receipt.commands).toEqual([]);
    expect(readdirSync(rig.dir).filter((n) => n.startsWith('marker'))).toEqual([]);
  });
});
