// Issue #8 §1 (design.md §10; Deno CVE-2024-27936, where a prompt stripped escapes for display but granted the raw
// string): what is displayed, what is hashed into the queue binding and what is run are the same string. A command
// holding an escape sequence is shown escaped, bound on the raw string, and run as the raw string; an answer bound
// to a stripped or rendered look-alike is refused, and nothing runs until the person answers the real request.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueueChannel } from '../../src/escalation/queue/asker.js';
import { answerRequest } from '../../src/escalation/queue/answerer.js';
import { describeRequest } from '../../src/escalation/queue/display.js';
import { bindingOf, readRequest, writeAnswerFile, type QueueRequest, type UnboundRequest } from '../../src/escalation/queue/files.js';
import type { EscalationChannel } from '../../src/escalation/types.js';
import { visible } from '../../src/core/visible.js';
import { wispPaths } from '../../src/core/paths.js';
import { makeRig, run } from '../helpers/conversation.js';
import { waitFor } from '../mcp/helpers.js';
import { firstRaw } from './hostile.js';

const RAW = 'safe.txt\x1b[2K\rdanger.txt';
const COMMAND = `touch '${RAW}'`;
/** What a stripping display (Deno's broken fix) would have shown and granted. */
const STRIPPED = COMMAND.replace(/\x1b\[[0-9;]*[A-Za-z]|\r/g, '');
/** What a terminal shows for the raw string: the CR and erase-line wipe the start. */
const RENDERED = `danger.txt'`;

function unbound(req: QueueRequest, command: string): UnboundRequest {
  const { binding: _b, ...rest } = req;
  return { ...rest, command, line: command } as UnboundRequest;
}

describe('display, binding and execution use one string', () => {
  it('shows the command escaped, binds the raw string, refuses look-alike answers, and runs exactly the raw string', async () => {
    let queue!: QueueChannel;
    const lazy: EscalationChannel = { name: 'queue', raise: (e, ctx) => queue.raise(e, ctx) };
    const rig = await makeRig({ responses: [run(COMMAND), { text: 'done' }], channel: lazy, config: { escalation: { timeoutSeconds: 60 } } });
    const paths = wispPaths(rig.home);
    queue = new QueueChannel({ paths, audit: rig.audit, pendingSeconds: 60, client: 'binding-test' });

    const turn = rig.conversation.turn('make the file');
    const id = await waitFor(() => {
      const names = existsSync(paths.pending) ? readdirSync(paths.pending) : [];
      return names.find((n) => n.endsWith('.request.json'))?.replace('.request.json', '');
    });
    const read = readRequest(paths.pending, id);
    if (!read.ok) throw new Error(read.reason);
    const req = read.value;
    if (req.verb !== 'approval') throw new Error('expected an approval request');

    // Bound on the raw string: the request holds it byte for byte, and the binding recomputes from it.
    expect(req.command).toBe(COMMAND);
    expect(req.line).toBe(COMMAND);
    expect(bindingOf(unbound(req, COMMAND))).toBe(req.binding);

    // Shown escaped: every byte of the raw string spelled out, nothing raw, nothing stripped.
    const shown = describeRequest(req);
    expect(shown).toContain(visible(COMMAND, { multiline: true }));
    expect(shown).toContain("safe.txt\\x1b[2K\\rdanger.txt");
    expect(firstRaw(shown)).toBeUndefined();

    // Look-alikes are other requests: different bindings, and answers bound to them are refused.
    for (const [i, lookalike] of [STRIPPED, RENDERED, visible(COMMAND)].entries()) {
      const forged = bindingOf(unbound(req, lookalike));
      expect(forged).not.toBe(req.binding);
      writeAnswerFile(paths.pending, { id, binding: forged, decision: 'once', via: 'cli', pid: process.pid, answeredAt: new Date().toISOString() });
      await waitFor(() => rig.audit.ofKind('escalation.settled').filter((e) => e.details.outcome === 'refused').length === i + 1);
    }
    const refused = rig.audit.ofKind('escalation.settled').filter((e) => e.details.outcome === 'refused');
    expect(refused).toHaveLength(3);
    for (const e of refused) expect(String(e.details.reason)).toMatch(/binding/);
    expect(rig.audit.ofKind('command.outcome')).toHaveLength(0);
    expect(readdirSync(rig.dir).filter((n) => n.includes('danger'))).toEqual([]);

    // The person answers the request as shown: it runs, as the raw string.
    expect(answerRequest(paths, req, { decision: 'once' }, { via: 'cli', answeredBy: 'human' }).ok).toBe(true);
    const result = await turn;
    expect(result.text).toBe('done');
    expect(existsSync(join(rig.dir, RAW))).toBe(true);
    expect(existsSync(join(rig.dir, 'safe.txt[2Kdanger.txt'))).toBe(false);
    expect(existsSync(join(rig.dir, 'danger.txt'))).toBe(false);
    const outcome = rig.audit.ofKind('command.outcome');
    expect(outcome).toHaveLength(1);
    expect(outcome[0]!.details.command).toBe(COMMAND);
    expect(rig.audit.ofKind('approval.decided').at(-1)!.details).toMatchObject({ decision: 'approved', command: COMMAND, escalationId: expect.any(String) });
    expect(rig.audit.ofKind('escalation.answered')).toHaveLength(1);
  });
});
