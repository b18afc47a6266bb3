// Request files planted or broken in the queue (half-written, oversized, a link, copied under another id) are
// refused by a listing, said on stderr, and audited: a planted file is evidence, not only noise (ADR 0097).
import * as fs from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { freshHome, wisp } from '../helpers/cli.js';

let dir: string;
let home: string;
beforeEach(() => {
  ({ dir, home } = freshHome());
});

const auditOf = (h: string) =>
  fs
    .readFileSync(join(h, 'logs/audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { kind: string; details: Record<string, unknown> });

describe('wisp approvals pending: refused files', () => {
  it('attack: half-written, oversized, linked and renamed request files are refused, said and audited once per listing', () => {
    const pending = join(home, 'pending');
    fs.mkdirSync(pending, { mode: 0o700 });
    const put = (name: string, text: string) => fs.writeFileSync(join(pending, name), text, { mode: 0o600 });
    put('aaaa1111.request.json', '{"id":"aaaa1111","verb":"appr');
    put('bbbb2222.request.json', 'a'.repeat(1_100_000));
    fs.symlinkSync('/etc/passwd', join(pending, 'cccc3333.request.json'));
    const r = wisp(['approvals', 'pending'], { cwd: dir, home });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/ignoring .*aaaa1111\.request\.json: it is not valid JSON/);
    expect(r.stderr).toMatch(/ignoring .*bbbb2222\.request\.json: it is larger than/);
    expect(r.stderr).toMatch(/ignoring .*cccc3333\.request\.json: it is a symbolic link/);
    const refused = auditOf(home).filter((e) => e.kind === 'escalation.settled' && e.details.outcome === 'refused');
    expect(refused.map((e) => e.details.escalationId).sort()).toEqual(['aaaa1111', 'bbbb2222', 'cccc3333']);
    expect(refused.every((e) => e.details.channel === 'queue' && String(e.details.reason).startsWith('request file refused: '))).toBe(true);
    expect(fs.readlinkSync(join(pending, 'cccc3333.request.json'))).toBe('/etc/passwd'); // nothing followed or moved
  });
});
