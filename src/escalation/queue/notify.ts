// Desktop notifications for queued requests (ADR 0005): `notify-send` on Linux, `osascript` on macOS, when present.
// A notification is a courtesy, never a dependency: it is launched detached, never waited on, and any failure
// is swallowed — but every attempt is audited (`notification`, outcome posted|refused) so silence is explainable.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { AuditContext, AuditSink } from '../../audit/kinds.js';
import { visible } from '../../core/visible.js';
import type { QueueRequest } from './files.js';

export interface Notice {
  readonly title: string;
  /** Shown as a subtitle on macOS; folded into the body elsewhere. */
  readonly subtitle?: string;
  readonly body: string;
  readonly escalationId?: string;
}

/** Starts a program detached; returns something that may later report a launch error. */
export type Launcher = (program: string, args: readonly string[]) => { on(event: 'error', cb: (err: Error) => void): unknown };

export interface NotifierOptions {
  readonly audit: AuditSink;
  /** `notifications.enabled` (default true). */
  readonly enabled?: boolean;
  /** `notifications.perMinute` (default 5); 0 posts nothing. */
  readonly perMinute?: number;
  readonly platform?: NodeJS.Platform;
  readonly env?: NodeJS.ProcessEnv;
  /** Seams for tests: how a program is found (default: fixed system directories) and how it is started. */
  readonly findProgram?: (name: string) => string | undefined;
  readonly launch?: Launcher;
  readonly now?: () => number;
}

export type NotifyOutcome = { readonly outcome: 'posted'; readonly route: string } | { readonly outcome: 'refused'; readonly reason: string };

const defaultLaunch: Launcher = (program, args) => {
  const child = spawn(program, [...args], { detached: true, stdio: 'ignore' });
  child.unref();
  return child;
};

/**
 * wisp's own helper programs are taken only from fixed system directories, never from PATH: a relative or
 * project-controlled PATH entry (`bin/notify-send` in a repository) would run outside the sandbox.
 */
export const SYSTEM_BIN_DIRS: readonly string[] = ['/usr/bin', '/bin', '/usr/local/bin', '/run/current-system/sw/bin'];

export function findSystemProgram(name: string, dirs: readonly string[] = SYSTEM_BIN_DIRS): string | undefined {
  if (name.includes('/')) return undefined;
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

// notify-send bodies may be read as markup by the notification server; keep the text literal.
function markupSafe(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// AppleScript receives the texts as argv, so nothing in them is ever parsed as script.
const OSASCRIPT_PROGRAM = [
  'on run argv',
  'display notification (item 1 of argv) with title (item 2 of argv) subtitle (item 3 of argv)',
  'end run',
];

export class Notifier {
  private readonly sent: number[] = [];
  private readonly enabled: boolean;
  private readonly perMinute: number;
  private readonly platform: NodeJS.Platform;
  private readonly findProgram: (name: string) => string | undefined;
  private readonly launch: Launcher;
  private readonly now: () => number;

  constructor(private readonly opts: NotifierOptions) {
    this.enabled = opts.enabled ?? true;
    this.perMinute = opts.perMinute ?? 5;
    this.platform = opts.platform ?? process.platform;
    this.findProgram = opts.findProgram ?? ((name) => findSystemProgram(name));
    this.launch = opts.launch ?? defaultLaunch;
    this.now = opts.now ?? Date.now;
  }

  /** Posts `notice` if allowed; returns at once. Audit failures propagate (the caller fails closed). */
  notify(notice: Notice, ctx: AuditContext): NotifyOutcome {
    const result = this.attempt(notice, ctx);
    this.record(notice, result, ctx);
    return result;
  }

  private attempt(notice: Notice, ctx: AuditContext): NotifyOutcome {
    if (!this.enabled) return { outcome: 'refused', reason: 'notifications are off (notifications.enabled)' };
    const now = this.now();
    while (this.sent.length > 0 && now - this.sent[0]! >= 60_000) this.sent.shift();
    if (this.sent.length >= this.perMinute) {
      return { outcome: 'refused', reason: `rate limited: at most ${this.perMinute} a minute (notifications.perMinute)` };
    }
    const route = this.platform === 'darwin' ? 'osascript' : this.platform === 'linux' ? 'notify-send' : undefined;
    if (!route) return { outcome: 'refused', reason: `no notifier on ${this.platform}` };
    const program = this.findProgram(route);
    if (!program) return { outcome: 'refused', reason: `${route} was not found on PATH` };
    const args =
      route === 'osascript'
        ? [...OSASCRIPT_PROGRAM.flatMap((line) => ['-e', line]), notice.body, notice.title, notice.subtitle ?? '']
        : [
            '--app-name=wisp',
            notice.title,
            markupSafe(notice.subtitle ? `${notice.subtitle}\n${notice.body}` : notice.body),
          ];
    try {
      const child = this.launch(program, args);
      child.on('error', (err) => {
        // A late launch failure: audited, but a broken audit must not crash the asker from a callback.
        try {
          this.record(notice, { outcome: 'refused', reason: `${route} failed: ${err.message}` }, ctx);
        } catch {
          // nothing more to do
        }
      });
    } catch (err) {
      return { outcome: 'refused', reason: `${route} failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    this.sent.push(now);
    return { outcome: 'posted', route };
  }

  private record(notice: Notice, result: NotifyOutcome, ctx: AuditContext): void {
    this.opts.audit.write(
      'notification',
      {
        channel: 'queue',
        ...(notice.escalationId ? { escalationId: notice.escalationId } : {}),
        title: notice.title,
        outcome: result.outcome,
        ...(result.outcome === 'posted' ? { route: result.route } : { reason: result.reason }),
      },
      ctx,
    );
  }
}

/** The notice for a queued request: what is asked (made visible, ≤120 chars) and the exact command that answers. */
export function noticeFor(req: QueueRequest): Notice {
  const where = `${visible(req.client, { maxChars: 40 })}${req.thread ? `, thread ${visible(req.thread, { maxChars: 40 })}` : ''}`;
  if (req.verb === 'approval') {
    return {
      title: 'wisp: approval needed',
      subtitle: `${req.level} risk · ${where}`,
      body: `${visible(req.command, { maxChars: 120 })} — wisp approvals approve ${req.id}`,
      escalationId: req.id,
    };
  }
  return {
    title: 'wisp: a question for you',
    subtitle: where,
    body: `${visible(req.question, { maxChars: 120 })} — wisp inquiries answer ${req.id} TEXT`,
    escalationId: req.id,
  };
}
