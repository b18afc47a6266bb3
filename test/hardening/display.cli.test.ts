// Issue #8 §1, the CLI surfaces: `wisp respond` (gate lines, output tails, refusals, the reply on a terminal) and the
// queue listings `wisp approvals pending` / `wisp inquiries pending`, each fed every hostile sample at once. Real
// processes on the built CLI (dist/bin/wisp.js), a script model, a fresh WISP_HOME.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { QueueChannel } from '../../src/escalation/queue/asker.js';
import { wispPaths } from '../../src/core/paths.js';
import { BIN, freshHome, wispAsync } from '../helpers/cli.js';
import { firstRaw, HOSTILE } from './hostile.js';

const SHORT = HOSTILE.filter((s) => s.text.length < 200);
const EVIL = SHORT.map((s) => s.text).join(' ');
let dir: string;
let home: string;
let work: string;

beforeAll(() => {
  ({ dir, home } = freshHome());
  work = join(dir, 'work');
  mkdirSync(work);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expectNoRawHostile(out: string, what: string): void {
  for (const s of HOSTILE) for (const raw of s.raw) expect(out.includes(raw), `${what}: ${s.name} raw`).toBe(false);
}

describe('wisp respond', () => {
  const script = () => {
    const file = join(dir, 'hostile-script.json');
    writeFileSync(
      file,
      JSON.stringify({
        responses: [
          {
            toolCalls: [
              // Runs (echo is read-only): its output tail carries every raw sequence back.
              { name: 'run_command', arguments: { command: `echo '${EVIL}'` } },
              // Refused under the default deny channel; the refusal reason quotes the part.
              { name: 'run_command', arguments: { command: `ls; touch 'marker ${EVIL}'` } },
              { name: 'ask_operator', arguments: { question: EVIL } },
              { name: 'run_command', arguments: { command: HOSTILE.at(-1)!.text } },
            ],
          },
          { text: `reply ${EVIL}\n` },
        ],
      }),
    );
    return file;
  };

  it('gate lines, output tails and refusals on stderr are escaped; piped stdout is the reply as written; nothing refused ran', async () => {
    const r = await wispAsync(['respond', '-m', `script:${script()}`, 'go'], { cwd: work, home }).done;
    expect(r.status, r.stderr).toBe(0);
    expect(firstRaw(r.stderr), 'stderr').toBeUndefined();
    expectNoRawHostile(r.stderr, 'stderr');
    expect(r.stderr).toContain('\\x1b[2K');
    expect(r.stderr).toContain('<U+202E>');
    expect(r.stderr).toMatch(/refused: .*touch/);
    // Piped, the reply is data: exactly what the model wrote.
    expect(r.stdout).toBe(`reply ${EVIL}\n`);
    expect(existsSync(join(work, `marker ${EVIL}`))).toBe(false);
  });

  it('on a terminal, the reply is escaped too (no raw sequence from the model reaches the screen)', () => {
    // util-linux `script` gives the CLI a pseudo-terminal; wisp's own spinner escapes are allowed, the model's are not.
    const quoted = [process.execPath, BIN, 'respond', '-m', `script:${script()}`, 'go'].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const r = spawnSync('script', ['-qec', quoted, '/dev/null'], {
      cwd: work,
      env: { ...process.env, WISP_HOME: home, NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('reply ');
    // The pty turns \n into \r\n and wisp's spinner clears its line with \r ESC[2K: look for the model's own.
    for (const raw of ['x\x1b[2K', '\x1b]0;', '\x1b]52', '\u009b', '\u202e', '\u2066', '\u200b', '\u{E0041}', '\ufeff', '\b', '\x07']) {
      expect(r.stdout.includes(raw), `terminal: raw ${JSON.stringify(raw)}`).toBe(false);
    }
    expect(r.stdout).toContain('<U+202E>');
  });
});

describe('the queue listings', () => {
  it('`wisp approvals pending` and `wisp inquiries pending` show hostile requests escaped', async () => {
    const paths = wispPaths(home);
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600 });
    const ctx = { session: 's', thread: `th ${HOSTILE[0]!.text}`, client: `cl ${HOSTILE[6]!.text}`, timeoutMs: 0 };
    await channel.file(
      { verb: 'approval', request: { command: EVIL, line: EVIL, pattern: EVIL, directory: work, level: 'moderate', reasons: ['r'] } },
      { ...ctx, escalationId: 'hostileA' },
    );
    await channel.file({ verb: 'inquiry', request: { question: EVIL } }, { ...ctx, escalationId: 'hostileQ' });
    try {
      const [a, q] = await Promise.all([
        wispAsync(['approvals', 'pending'], { cwd: work, home }).done,
        wispAsync(['inquiries', 'pending'], { cwd: work, home }).done,
      ]);
      for (const [what, r] of [['approvals pending', a], ['inquiries pending', q]] as const) {
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout, what).toContain('hostile');
        expect(firstRaw(r.stdout + r.stderr), what).toBeUndefined();
        expectNoRawHostile(r.stdout + r.stderr, what);
      }
      expect(a.stdout).toContain('<U+202E>');
      expect(q.stdout).toContain('\\x1b');
    } finally {
      channel.withdraw('hostileA');
      channel.withdraw('hostileQ');
    }
  });
});

describe('error messages that quote text wisp did not write', () => {
  it("a repository's .wisprc.json with escapes in a key, and an unknown option with escapes: shown escaped", async () => {
    const repo = join(dir, 'evil-repo');
    mkdirSync(repo, { recursive: true });
    writeFileSync(join(repo, '.wisprc.json'), '{"approval": {"\\u001b]0;pwned\\u0007\\u001b[2J\\u202e": 1}}');
    const [config, option] = await Promise.all([
      wispAsync(['check', '--', 'ls'], { cwd: repo, home, env: { HOME: dir } }).done,
      wispAsync([`--fr\x1b[2J\u202eob`], { cwd: work, home }).done,
    ]);
    expect(config.status).toBe(64);
    expect(config.stderr).toContain('approval.\\x1b]0;pwned\\x07\\x1b[2J<U+202E>: unknown key');
    expect(option.status).toBe(64);
    expect(option.stderr).toContain('--fr\\x1b[2J<U+202E>ob');
    for (const r of [config, option]) {
      expect(firstRaw(r.stderr)).toBeUndefined();
      expectNoRawHostile(r.stderr, 'stderr');
    }
  });
});
