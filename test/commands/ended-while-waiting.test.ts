// `wisp respond --escalation queue` stopped while it waits for a person (ADR 0102): Ctrl+C wrote session.end but never
// settled the request; SIGTERM wrote nothing at all. Now the request is settled as abandoned, saying which, before
// session.end, the request file is gone, and nothing ran.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLog, freshHome, wispAsync } from '../helpers/cli.js';

let dir: string;
let home: string;
beforeEach(() => {
  ({ dir, home } = freshHome());
});

const events = () => auditLog(home);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stoppedWhileWaiting(signal: NodeJS.Signals) {
  const s = join(dir, 's.json');
  writeFileSync(s, JSON.stringify({ responses: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'touch never-ran' } }] }, { text: 'x' }] }));
  const { child, done } = wispAsync(['respond', '--escalation', 'queue', '-m', `script:${s}`, 'go'], { cwd: dir, home });
  const pending = join(home, 'pending');
  for (let i = 0; i < 300 && !(existsSync(pending) && readdirSync(pending).some((f) => f.endsWith('.request.json'))); i++) await sleep(50);
  child.kill(signal);
  return await done;
}

describe('wisp respond stopped while a request waits in the queue', () => {
  for (const [signal, status, words] of [
    ['SIGTERM', 143, 'wisp respond was stopped (SIGTERM) before an answer came'],
    ['SIGINT', 130, 'wisp respond was interrupted (Ctrl+C or SIGINT) before an answer came'],
  ] as const) {
    it(`attack: ${signal} during the wait left a request nothing decided — settled as abandoned before session.end`, async () => {
      const r = await stoppedWhileWaiting(signal);
      expect(r.status).toBe(status);
      const kinds = events().map((e) => e.kind);
      expect(kinds.slice(-3)).toEqual(['approval.decided', 'escalation.settled', 'session.end']);
      const settled = events().find((e) => e.kind === 'escalation.settled')!;
      expect(settled.details).toMatchObject({ outcome: 'abandoned', channel: 'queue', reason: words });
      expect(events().at(-1)!.details.dropped).toEqual([settled.details.escalationId]);
      expect(readdirSync(join(home, 'pending')).filter((f) => !f.startsWith('.'))).toEqual([]);
      expect(existsSync(join(dir, 'never-ran'))).toBe(false);
    });
  }
});
