// `wisp chat` whose terminal is closed (SIGHUP) or which is stopped (SIGTERM) while a dialog is open (ADR 0102):
// main exited at once and the audit log kept an approval nothing decided, and no session.end. Now the open dialog is
// settled as abandoned, saying why, then the session ends; nothing runs. Needs the build.
import { existsSync } from 'node:fs';
import { auditLog } from '../helpers/cli.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatSetup, READY, usePtyChats } from '../helpers/pty-chat.js';

const start = usePtyChats();
const run = (command: string) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] });

describe('wisp chat ended while a dialog is open', () => {
  it('attack: the terminal closed (SIGHUP) during a dialog — the approval is settled as abandoned, then session.end hangup', async () => {
    const s = chatSetup([run('touch never-ran'), { text: 'x' }]);
    const t = start(s);
    await t.waitFor(READY);
    await t.typeLine('make it');
    await t.waitFor('approve a command?');
    t.kill(); // node-pty's kill sends SIGHUP, as a closed terminal window does
    await t.exited;
    const events = auditLog(s.home);
    const kinds = events.map((e) => e.kind);
    expect(kinds.slice(-3)).toEqual(['approval.decided', 'escalation.settled', 'session.end']);
    expect(events.at(-2)!.details).toMatchObject({
      channel: 'terminal',
      outcome: 'abandoned',
      reason: 'the terminal of wisp chat was closed (SIGHUP) before an answer came',
    });
    expect(events.at(-1)!.details).toMatchObject({ reason: 'hangup', dropped: [events.at(-2)!.details.escalationId] });
    expect(existsSync(join(s.work, 'never-ran'))).toBe(false);
  }, 60_000);
});
