// The chat's slash commands: /help, /approvals [revoke ID], /config [show | set KEY VALUE], /model [SPEC], /new,
// /quit. Plain functions over a small context, so they are tested without Ink; the App prints what they return
// (through visible(), like everything else in the transcript).
import type { AuditContext, AuditSink } from '../src/audit/kinds.js';
import { writeOperatorEvent, type Revocation } from '../src/audit/operator.js';
import { editConfig, type ConfigChange } from '../src/config/edit.js';
import { getPath } from '../src/config/key-path.js';
import type { Config } from '../src/config/schema.js';
import type { ApprovalCache } from '../src/gate/session-approvals.js';

export interface StoredApprovalView {
  readonly id: string;
  readonly pattern: string;
  readonly workingDirectory?: string;
  readonly scope: string;
  readonly level: string;
  readonly expiresAt: string;
}

export interface SlashContext {
  readonly config: Config;
  /** `$WISP_HOME/config.json`. */
  readonly configFile: string;
  readonly audit: AuditSink;
  readonly auditCtx: AuditContext;
  readonly store: { list(): readonly StoredApprovalView[]; revoke(id: string): boolean };
  readonly sessionApprovals: ApprovalCache;
  modelId(): string;
  /** Switches the model (a new conversation that keeps the history). Throws for a bad spec. */
  setModel(spec: string): string;
  /** Starts a new conversation: the model forgets what was said. */
  newConversation(): void;
  /**
   * Audits a revocation of stored approvals, as `wisp approvals revoke` does (the same `approval.revoked` event,
   * written by the same helper, src/audit/operator.ts). Throws when the log cannot take it.
   */
  recordRevocation?(details: Revocation): void;
}

export type SlashResult =
  | { readonly kind: 'print'; readonly text: string }
  | { readonly kind: 'error'; readonly text: string }
  | { readonly kind: 'quit' }
  /** Clear the screen, then print `text` (the conversation was started afresh). */
  | { readonly kind: 'clear'; readonly text: string };

export const HELP = [
  'Type a prompt and press Enter; Alt+Enter (or \\ then Enter) begins a new line. ↑/↓ recall earlier prompts (kept',
  'across chats; a prompt that starts with a space is not kept), Ctrl+R searches them, Ctrl+L redraws the screen.',
  'While the model works you can type ahead: Enter queues',
  'the message for when the turn ends, Esc clears it (and with nothing typed interrupts the turn). Ctrl+C clears what',
  'you typed, interrupts a turn, or — pressed twice within 2 s on an empty line — quits. Ctrl+D on an empty line quits.',
  '',
  'Slash commands:',
  '  /help                      this text',
  '  /approvals                 standing approvals (approvals.json) and this chat\'s session approvals',
  '  /approvals revoke ID       remove one (a stored id, or s1, s2… for a session approval)',
  '  /config                    the configuration in effect',
  '  /config set KEY VALUE      change the user config ($WISP_HOME/config.json); applies to the next chat',
  '  /model [SPEC]              show the model, or switch to SPEC (ollama:NAME, openai:NAME, script:PATH)',
  '  /new                       start a new conversation (the model forgets this one)',
  '  /clear                     clear the screen and start a new conversation',
  '  /quit                      leave',
  '',
  'Approval dialog: y once · s session · n no · Enter alone is no · p project / a always, then Enter to confirm.',
  'A dialog counts a key only after a ½ s pause: keys typed in a run go to the input line instead.',
  'Question dialog: type the answer, Enter sends, Esc declines; ↑/↓ pick a choice field, Tab moves; PgUp/PgDn scroll.',
].join('\n');

export function isSlash(text: string): boolean {
  return text.trimStart().startsWith('/');
}

export function runSlash(line: string, ctx: SlashContext): SlashResult {
  const words = line.trim().split(/\s+/);
  const name = (words[0] ?? '').toLowerCase();
  const args = words.slice(1);
  switch (name) {
    case '/help':
    case '/?':
      return print(HELP);
    case '/quit':
    case '/exit':
    case '/q':
      return { kind: 'quit' };
    case '/clear':
      ctx.newConversation();
      return { kind: 'clear', text: 'screen cleared; new conversation: the model starts afresh (approvals given this session still stand)' };
    case '/new':
      ctx.newConversation();
      return print('new conversation: the model starts afresh (approvals given this session still stand)');
    case '/model':
      return model(args, ctx);
    case '/approvals':
      return approvals(args, ctx);
    case '/config':
      return config(line, args, ctx);
    default:
      return { kind: 'error', text: `unknown command ${name}; /help lists them` };
  }
}

function print(text: string): SlashResult {
  return { kind: 'print', text };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function model(args: string[], ctx: SlashContext): SlashResult {
  if (args.length === 0) return print(`model: ${ctx.modelId()}`);
  if (args.length > 1) return { kind: 'error', text: 'usage: /model [SPEC]' };
  try {
    const id = ctx.setModel(args[0]!);
    return print(`model: ${id} (the conversation so far is kept)`);
  } catch (err) {
    return { kind: 'error', text: `cannot switch the model: ${errorText(err)}` };
  }
}

function sessionList(ctx: SlashContext): Array<{ id: string; directory: string; pattern: string }> {
  return ctx.sessionApprovals.list().map((e, i) => ({ id: `s${i + 1}`, ...e }));
}

function approvals(args: string[], ctx: SlashContext): SlashResult {
  const sub = args[0]?.toLowerCase();
  if (sub === undefined || sub === 'list') {
    let stored: readonly StoredApprovalView[];
    try {
      stored = ctx.store.list();
    } catch (err) {
      return { kind: 'error', text: `cannot read the stored approvals: ${errorText(err)}` };
    }
    const session = sessionList(ctx);
    const lines: string[] = [];
    if (stored.length === 0) lines.push('Standing approvals: none');
    else {
      lines.push('Standing approvals (kept in approvals.json):');
      lines.push(...table(
        ['ID', 'SCOPE', 'LEVEL', 'EXPIRES', 'WHERE', 'PATTERN'],
        stored.map((e) => [e.id, e.scope, e.level, e.expiresAt.slice(0, 10), e.workingDirectory ?? '(any directory)', e.pattern]),
      ));
    }
    if (session.length === 0) lines.push('Session approvals: none');
    else {
      lines.push('Session approvals (until this chat ends):');
      lines.push(...table(['ID', 'WHERE', 'PATTERN'], session.map((e) => [e.id, e.directory, e.pattern])));
    }
    lines.push('/approvals revoke ID removes one.');
    return print(lines.join('\n'));
  }
  if (sub === 'revoke') {
    const id = args[1];
    if (id === undefined || args.length > 2) return { kind: 'error', text: 'usage: /approvals revoke ID' };
    const s = sessionList(ctx).find((e) => e.id === id);
    if (s) {
      ctx.sessionApprovals.delete(s.directory, s.pattern);
      const text = `revoked session approval ${id} (${s.pattern} in ${s.directory})`;
      try {
        // Audited like every revocation; `scope: session` tells other chats it was this chat's own (ids s1, s2… are
        // per chat), so they keep theirs.
        ctx.recordRevocation?.({ action: 'revoke', ids: [id], pattern: s.pattern, scope: 'session' });
      } catch (err) {
        return { kind: 'error', text: `${text}, but the audit log could not record it: ${errorText(err)}` };
      }
      return print(text);
    }
    let entry: StoredApprovalView | undefined;
    try {
      entry = ctx.store.list().find((e) => e.id === id);
      if (!ctx.store.revoke(id)) return { kind: 'error', text: `no approval with id ${id}; /approvals lists them` };
    } catch (err) {
      return { kind: 'error', text: `cannot revoke ${id}: ${errorText(err)}` };
    }
    // As from another terminal: this chat's session approvals of the same pattern go too.
    const dropped = entry ? ctx.sessionApprovals.list().filter((e) => e.pattern === entry.pattern) : [];
    for (const e of dropped) ctx.sessionApprovals.delete(e.directory, e.pattern);
    const lines = [`revoked ${id}`];
    if (dropped.length > 0) lines.push(`and this chat's session approval of ${entry!.pattern} (${dropped.map((e) => e.directory).join(', ')})`);
    try {
      // The store changed first: a revocation only makes the gate stricter, so it stands even if the log fails.
      ctx.recordRevocation?.({ action: 'revoke', ids: [id], ...(entry ? { pattern: entry.pattern, scope: entry.scope } : {}) });
    } catch (err) {
      return { kind: 'error', text: `${lines.join(' ')}, but the audit log could not record it: ${errorText(err)}` };
    }
    return print(lines.join(' '));
  }
  return { kind: 'error', text: 'usage: /approvals [list] | /approvals revoke ID' };
}

function config(line: string, args: string[], ctx: SlashContext): SlashResult {
  const sub = args[0]?.toLowerCase();
  if (sub === undefined || sub === 'show') {
    const key = args[1];
    if (key !== undefined) {
      const value = getPath(ctx.config, key);
      return value === undefined ? { kind: 'error', text: `${key} is not set` } : print(`${key}: ${JSON.stringify(value, null, 2)}`);
    }
    return print(`Configuration in effect for this chat:\n${JSON.stringify(ctx.config, null, 2)}`);
  }
  if (sub === 'set') {
    const key = args[1];
    // The value is the rest of the line as typed, so `/config set policy.deny ["a b"]` keeps its spaces.
    const m = /^\s*\S+\s+\S+\s+\S+\s+(.*)$/s.exec(line);
    const value = m?.[1]?.trim();
    if (key === undefined || value === undefined || value === '') return { kind: 'error', text: 'usage: /config set KEY VALUE' };
    try {
      const change = editConfig({
        file: ctx.configFile,
        key,
        value,
        action: 'set',
        // Recorded before the file is replaced; if the audit log cannot take it, nothing is written.
        beforeWrite: (c) => record(ctx, c),
      });
      const shown = (v: unknown) => (v === null || v === undefined ? '(unset)' : JSON.stringify(v));
      if (!change.changed) return print(`${key} is already ${shown(change.after)}; nothing changed`);
      const lines = [
        `${key}: ${shown(change.before)} → ${shown(change.after)} (${change.file})`,
        'This chat keeps the settings it started with; the change applies the next time wisp starts.',
        ...change.warnings,
      ];
      if (change.weakens.length > 0) lines.push(`note: this weakens the gate: ${change.weakens.join('; ')}`);
      return print(lines.join('\n'));
    } catch (err) {
      return { kind: 'error', text: errorText(err) };
    }
  }
  return { kind: 'error', text: 'usage: /config [show [KEY]] | /config set KEY VALUE' };
}

function record(ctx: SlashContext, change: ConfigChange): void {
  writeOperatorEvent(ctx.audit, ctx.auditCtx, { kind: 'config.change', change, via: 'chat' });
}

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length))));
  const fmt = (r: string[]) => '  ' + r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [fmt(head), ...rows.map(fmt)];
}
