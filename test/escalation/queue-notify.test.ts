import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { findSystemProgram, noticeFor, Notifier, type Launcher } from '../../src/escalation/queue/notify.js';
import { QueueChannel } from '../../src/escalation/queue/asker.js';
import type { QueueRequest } from '../../src/escalation/queue/files.js';
import { wispPaths } from '../../src/core/paths.js';

function recorder() {
  const launched: Array<{ program: string; args: readonly string[]; child: EventEmitter }> = [];
  const launch: Launcher = (program, args) => {
    const child = new EventEmitter();
    launched.push({ program, args, child });
    return child;
  };
  return { launched, launch };
}

const request = (command: string): QueueRequest => ({
  id: 'ab12cd34',
  mode: 'waiting',
  verb: 'approval',
  command,
  line: command,
  pattern: 'rm *',
  directory: '/w',
  level: 'dangerous',
  reasons: ['recursive deletion'],
  ask: null,
  thread: 't9',
  client: 'claude-code',
  pid: 1,
  createdAt: new Date().toISOString(),
  expiresAt: null,
  binding: '0'.repeat(64),
});

describe('Notifier', () => {
  it('runs notify-send on Linux with the visible command and the exact answering command', () => {
    const audit = new MemoryAudit();
    const { launched, launch } = recorder();
    const n = new Notifier({ audit, platform: 'linux', findProgram: (p) => `/usr/bin/${p}`, launch });
    const result = n.notify(noticeFor(request('ls\r\x1b[2K rm -rf <b>~</b>')), { session: 's' });
    expect(result).toEqual({ outcome: 'posted', route: 'notify-send' });
    expect(launched).toHaveLength(1);
    const { program, args } = launched[0]!;
    expect(program).toBe('/usr/bin/notify-send');
    expect(args[1]).toBe('wisp: approval needed');
    const body = args[2]!;
    expect(body).toContain('dangerous risk · claude-code, thread t9');
    expect(body).toContain('ls\\r\\x1b[2K rm -rf &lt;b&gt;~&lt;/b&gt; — wisp approvals approve ab12cd34');
    expect(body).not.toMatch(/[\x1b\r]/);
    expect(audit.ofKind('notification')[0]!.details).toMatchObject({ outcome: 'posted', route: 'notify-send', escalationId: 'ab12cd34' });
  });

  it('passes texts to osascript as arguments, never inside the script', () => {
    const { launched, launch } = recorder();
    const n = new Notifier({ audit: new MemoryAudit(), platform: 'darwin', findProgram: () => '/usr/bin/osascript', launch });
    n.notify(noticeFor(request('echo "x" & do shell script "id"')), { session: 's' });
    const { args } = launched[0]!;
    const script = args.filter((_, i) => args[i - 1] === '-e').join('\n');
    expect(script).not.toContain('echo');
    expect(args).toContain('wisp: approval needed');
    expect(args.some((a) => a.startsWith('echo "x" & do shell script "id" — wisp approvals approve ab12cd34'))).toBe(true);
  });

  it('bounds the command to 120 characters in the body', () => {
    const notice = noticeFor(request('x'.repeat(500)));
    expect(notice.body).toBe(`${'x'.repeat(120)}… [+380 chars] — wisp approvals approve ab12cd34`);
  });

  it('is rate limited per minute, and says so in the audit', () => {
    const audit = new MemoryAudit();
    const { launched, launch } = recorder();
    let now = 1_000_000;
    const n = new Notifier({ audit, perMinute: 2, platform: 'linux', findProgram: () => '/bin/notify-send', launch, now: () => now });
    const notice = noticeFor(request('ls'));
    expect(n.notify(notice, { session: 's' }).outcome).toBe('posted');
    expect(n.notify(notice, { session: 's' }).outcome).toBe('posted');
    expect(n.notify(notice, { session: 's' })).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/rate limited/) });
    now += 60_001;
    expect(n.notify(notice, { session: 's' }).outcome).toBe('posted');
    expect(launched).toHaveLength(3);
    expect(audit.ofKind('notification').map((e) => e.details.outcome)).toEqual(['posted', 'posted', 'refused', 'posted']);
  });

  it('is off when disabled, and refuses quietly when the program is missing', () => {
    const audit = new MemoryAudit();
    const { launched, launch } = recorder();
    const off = new Notifier({ audit, enabled: false, platform: 'linux', findProgram: () => '/bin/notify-send', launch });
    expect(off.notify(noticeFor(request('ls')), { session: 's' })).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/off/) });
    const missing = new Notifier({ audit, platform: 'linux', findProgram: () => undefined, launch });
    expect(missing.notify(noticeFor(request('ls')), { session: 's' })).toMatchObject({ reason: 'notify-send was not found on PATH' });
    expect(launched).toEqual([]);
  });

  it('swallows launch errors (thrown or reported later) but audits them', () => {
    const audit = new MemoryAudit();
    const throwing = new Notifier({
      audit,
      platform: 'linux',
      findProgram: () => '/bin/notify-send',
      launch: () => {
        throw new Error('EACCES');
      },
    });
    expect(throwing.notify(noticeFor(request('ls')), { session: 's' })).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/EACCES/) });
    const { launched, launch } = recorder();
    const late = new Notifier({ audit, platform: 'linux', findProgram: () => '/bin/notify-send', launch });
    late.notify(noticeFor(request('ls')), { session: 's' });
    launched[0]!.child.emit('error', new Error('spawn ENOENT'));
    expect(audit.ofKind('notification').map((e) => e.details.outcome)).toEqual(['refused', 'posted', 'refused']);
  });

  it('really launches a detached program without waiting for it', () => {
    const dir = fs.mkdtempSync(join(tmpdir(), 'wisp-notify-'));
    const marker = join(dir, 'args');
    const fake = join(dir, 'notify-send');
    fs.writeFileSync(fake, `#!/bin/sh\nsleep 1; printf '%s\\n' "$@" > '${marker}'\n`, { mode: 0o755 });
    const n = new Notifier({ audit: new MemoryAudit(), platform: 'linux', findProgram: () => fake });
    const t0 = performance.now();
    expect(n.notify(noticeFor(request('ls')), { session: 's' }).outcome).toBe('posted');
    expect(performance.now() - t0).toBeLessThan(500); // did not wait for the 1 s sleep
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("never runs a repository's bin/notify-send, whatever PATH says (relative or absolute entry)", () => {
    const dir = fs.mkdtempSync(join(tmpdir(), 'wisp-notify-'));
    fs.mkdirSync(join(dir, 'bin'));
    const fake = join(dir, 'bin', 'notify-send');
    fs.writeFileSync(fake, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const launched: string[] = [];
    const launch = (program: string) => {
      launched.push(program);
      return { on: () => undefined };
    };
    for (const PATH of ['bin', `${dir}/bin`, `.:bin:${dir}/bin`]) {
      const n = new Notifier({ audit: new MemoryAudit(), platform: 'linux', env: { PATH }, launch });
      n.notify(noticeFor(request('ls')), { session: 's' });
    }
    expect(launched.every((p) => p.startsWith('/') && !p.startsWith(dir))).toBe(true);
    expect(findSystemProgram('notify-send', [join(dir, 'nowhere')])).toBeUndefined();
    expect(findSystemProgram('../bin/notify-send')).toBeUndefined();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the queue channel notifies when it files a request', async () => {
    const home = fs.mkdtempSync(join(tmpdir(), 'wisp-notify-'));
    const audit = new MemoryAudit();
    const { launched, launch } = recorder();
    const notifier = new Notifier({ audit, platform: 'linux', findProgram: () => '/bin/notify-send', launch });
    const channel = new QueueChannel({ paths: wispPaths(home), audit, pendingSeconds: 60, notifier });
    const { id } = await channel.file(
      { verb: 'inquiry', request: { question: 'Which branch?' } },
      { session: 's', timeoutMs: 0, escalationId: 'nq1' },
    );
    expect(launched[0]!.args[2]).toContain(`Which branch? — wisp inquiries answer ${id} TEXT`);
    channel.withdraw(id);
    fs.rmSync(home, { recursive: true, force: true });
  });
});
