import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AutoChannel, DenyChannel } from '../../src/escalation/channels.js';
import { PendingEscalations } from '../../src/escalation/pending.js';
import { ResultChannel } from '../../src/escalation/result.js';
import type { ChatMessage } from '../../src/model/types.js';
import { CountingChannel } from '../helpers/counting-channel.js';
import { call, makeRig, run } from '../helpers/conversation.js';

const lastTool = (messages: ChatMessage[]) => [...messages].reverse().find((m) => m.role === 'tool') as Extract<ChatMessage, { role: 'tool' }>;

describe('the tool loop', () => {
  it('runs a safe command in the sandbox and gives the model its output', async () => {
    const rig = await makeRig({ responses: [run('echo hello-from-sandbox'), { text: 'done' }], channel: new DenyChannel() });
    const result = await rig.conversation.turn('say hello');
    expect(result.text).toBe('done');
    expect(result.receipt.commands).toMatchObject([{ command: 'echo hello-from-sandbox', exitStatus: 0, timedOut: false }]);
    expect(lastTool(rig.seen[1]!).content).toContain('hello-from-sandbox');
    expect(rig.audit.ofKind('command.outcome')).toHaveLength(1);
    expect(rig.audit.events.map((e) => e.kind)).toEqual(expect.arrayContaining(['prompt', 'tool.call', 'tool.result', 'response']));
  });

  it('refuses a moderate command under deny, runs nothing, and says how to be asked', async () => {
    const rig = await makeRig({ responses: [run('touch marker'), { text: 'ok' }], channel: new DenyChannel() });
    const result = await rig.conversation.turn('make a marker');
    expect(existsSync(join(rig.dir, 'marker'))).toBe(false);
    expect(result.refusals).toHaveLength(1);
    expect(result.refusals[0]!.reason).toContain('--yes');
    expect(lastTool(rig.seen[1]!).content).toMatch(/^error: command not approved/);
    expect(rig.audit.ofKind('command.outcome')).toHaveLength(0);
  });

  it('runs a moderate command under auto, once', async () => {
    const rig = await makeRig({ responses: [run('touch marker'), { text: 'ok' }], channel: new AutoChannel() });
    await rig.conversation.turn('make a marker');
    expect(existsSync(join(rig.dir, 'marker'))).toBe(true);
    expect(rig.audit.ofKind('approval.decided')[0]!.details).toMatchObject({ decision: 'approved', scope: 'once', channel: 'auto' });
  });

  it('refuses a denied command even under auto', async () => {
    const rig = await makeRig({ responses: [run('sudo touch marker'), { text: 'ok' }], channel: new AutoChannel() });
    const result = await rig.conversation.turn('sudo');
    expect(existsSync(join(rig.dir, 'marker'))).toBe(false);
    expect(result.refusals[0]!.reason).toMatch(/denied by policy/);
  });

  it.each([
    ['an unknown tool', call('format_disk', { device: '/dev/sda' }), /unknown tool 'format_disk'/],
    ['arguments that are not JSON', call('run_command', '{"command": "ls"'), /not valid JSON/],
    ['a missing field', call('run_command', {}), /invalid arguments for run_command: command/],
    ['a wrong type', call('read_file', { path: 42 }), /invalid arguments for read_file: path/],
    ['an extra field', call('run_command', { command: 'ls', sudo: true }), /invalid arguments for run_command/],
    ['a huge string', call('run_command', { command: 'x'.repeat(20000) }), /invalid arguments for run_command: command/],
  ])('turns %s into an error the model reads, audited, without a crash', async (_what, bad, message) => {
    const rig = await makeRig({ responses: [bad, { text: 'sorry' }], channel: new AutoChannel() });
    const result = await rig.conversation.turn('go');
    expect(result.text).toBe('sorry');
    expect(lastTool(rig.seen[1]!).content).toMatch(message);
    const res = rig.audit.ofKind('tool.result');
    expect(res).toHaveLength(1);
    expect(res[0]!.details).toMatchObject({ isError: true });
    expect(rig.audit.ofKind('command.outcome')).toHaveLength(0);
  });

  it('stops at the cap of tool rounds', async () => {
    const responses = Array.from({ length: 5 }, () => run('true'));
    const rig = await makeRig({ responses, channel: new AutoChannel(), config: { tools: { maxRounds: 3 } } });
    const result = await rig.conversation.turn('loop');
    expect(result.rounds).toBe(3);
    expect(result.text).toMatch(/stopped after 3 tool rounds/);
  });

  it('reads and edits files through the gate', async () => {
    const rig = await makeRig({
      responses: [
        call('edit_file', { path: 'notes.txt', mode: 'write', content: 'one\ntwo\n' }),
        call('edit_file', { path: 'notes.txt', mode: 'replace', find: 'two', content: 'three' }),
        call('read_file', { path: 'notes.txt' }),
        { text: 'ok' },
      ],
      channel: new AutoChannel(),
    });
    const result = await rig.conversation.turn('edit');
    expect(readFileSync(join(rig.dir, 'notes.txt'), 'utf8')).toBe('one\nthree\n');
    expect(result.receipt.files).toMatchObject([{ mode: 'write', created: true }, { mode: 'replace', created: false }]);
    expect(lastTool(rig.seen[3]!).content).toBe('1\tone\n2\tthree\n[end of file]');
    expect(rig.audit.ofKind('file.write')).toHaveLength(2);
  });

  it('never lets edit_file write under $WISP_HOME or outside the roots', async () => {
    const rig = await makeRig({
      responses: [
        call('edit_file', { path: '.wisp-home/approvals.json', mode: 'write', content: '[]' }),
        call('edit_file', { path: '/etc/wisp-should-not-exist', mode: 'write', content: 'x' }),
        { text: 'ok' },
      ],
      channel: new AutoChannel(),
    });
    await rig.conversation.turn('edit');
    expect(existsSync(join(rig.home, 'approvals.json'))).toBe(false);
    expect(existsSync('/etc/wisp-should-not-exist')).toBe(false);
    expect(lastTool(rig.seen[1]!).content).toMatch(/wisp's own state directory/);
    expect(lastTool(rig.seen[2]!).content).toMatch(/outside the writable roots/);
  });

  it('asks before reading credentials', async () => {
    const channel = new CountingChannel({ kind: 'declined', reason: 'declined by the user' });
    const rig = await makeRig({ responses: [call('read_file', { path: '.ssh/id_rsa' }), { text: 'ok' }], channel });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(rig.dir, '.ssh'));
    writeFileSync(join(rig.dir, '.ssh/id_rsa'), 'PRIVATE');
    await rig.conversation.turn('read the key');
    expect(channel.asked).toHaveLength(1);
    expect(lastTool(rig.seen[1]!).content).toMatch(/^error: read not approved/);
  });
});

describe('ask_operator', () => {
  const ask = (question = 'Which file?') => call('ask_operator', { question });

  it('gives the model the answer', async () => {
    const rig = await makeRig({ responses: [ask(), { text: 'thanks' }], channel: new CountingChannel({ kind: 'answered', text: 'notes.txt', answeredBy: 'human' }) });
    const result = await rig.conversation.turn('go');
    expect(lastTool(rig.seen[1]!).content).toBe('The operator answered:\nnotes.txt');
    expect(result.receipt.inquiries).toMatchObject([{ outcome: 'answered', channel: 'terminal', answeredBy: 'human' }]);
    expect(rig.audit.ofKind('inquiry.decided')[0]!.details).toMatchObject({ decision: 'answered', answeredBy: 'human' });
  });

  it('caps the answer at 4 KiB', async () => {
    const rig = await makeRig({ responses: [ask(), { text: 'ok' }], channel: new CountingChannel({ kind: 'answered', text: 'é'.repeat(5000) }) });
    await rig.conversation.turn('go');
    const content = lastTool(rig.seen[1]!).content;
    expect(Buffer.byteLength(content.replace('The operator answered:\n', ''))).toBeLessThanOrEqual(4096);
    expect(content).toContain('cut at 4 KiB');
  });

  it('is declined under --yes: there is no operator', async () => {
    const rig = await makeRig({ responses: [ask(), { text: 'ok' }], channel: new AutoChannel() });
    await rig.conversation.turn('go');
    expect(lastTool(rig.seen[1]!).content).toContain('no operator (auto)');
  });

  it('tells the model when nobody answered in time', async () => {
    const rig = await makeRig({ responses: [ask(), { text: 'ok' }], channel: new CountingChannel({ kind: 'unanswered', waitedMs: 5000 }) });
    await rig.conversation.turn('go');
    expect(lastTool(rig.seen[1]!).content).toMatch(/^No answer within 5s/);
    expect(rig.audit.ofKind('escalation.settled')[0]!.details).toMatchObject({ outcome: 'timed-out' });
  });

  it('returns pending under the result channel and replays the answer on the next turn', async () => {
    const pending = new PendingEscalations(60_000);
    const channel = new ResultChannel(pending, { file: async () => ({ id: 'x', expiresAt: 0 }), poll: () => undefined, withdraw: () => undefined });
    const rig = await makeRig({ responses: [ask('Keep which README?'), { text: 'waiting' }, { text: 'got it' }], channel, pending, thread: 't1' });
    const first = await rig.conversation.turn('tidy up');
    expect(first.pending).toHaveLength(1);
    const id = first.pending[0]!.id;
    expect(lastTool(rig.seen[1]!).content).toMatch(/^pending/);
    const second = await rig.conversation.turn('continue', { answers: [{ id, text: 'README.md', answeredBy: 'human' }] });
    expect(second.refusals).toHaveLength(0);
    const replay = rig.seen[2]!.find((m) => m.role === 'tool' && m.content.includes('README.md'));
    expect(replay).toMatchObject({ role: 'tool', name: 'ask_operator' });
    expect(rig.seen[2]!.at(-1)).toEqual({ role: 'user', content: 'continue' });
    expect(rig.audit.ofKind('escalation.answered')[0]!.details).toMatchObject({ channel: 'result', answeredBy: 'human', via: 'respond.answers' });
  });

  it('refuses a second redeem and an unknown id in the result, audited', async () => {
    const pending = new PendingEscalations(60_000);
    const channel = new ResultChannel(pending, { file: async () => ({ id: 'x', expiresAt: 0 }), poll: () => undefined, withdraw: () => undefined });
    const rig = await makeRig({ responses: [ask(), { text: 'waiting' }, { text: 'a' }, { text: 'b' }], channel, pending, thread: 't1' });
    const first = await rig.conversation.turn('go');
    const id = first.pending[0]!.id;
    await rig.conversation.turn('continue', { answers: [{ id, text: 'x' }] });
    const again = await rig.conversation.turn('again', { answers: [{ id, text: 'y' }, { id: 'nope', text: 'z' }] });
    expect(again.refusals.map((r) => r.escalationId)).toEqual([id, 'nope']);
    expect(rig.audit.ofKind('escalation.settled').filter((e) => e.details.outcome === 'refused')).toHaveLength(2);
  });
});
