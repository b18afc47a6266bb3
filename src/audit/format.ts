// One readable line per audit event, for `wisp logs`: time, session (and thread, turn), kind, then the few details
// that matter for that kind. Everything taken from the log goes through visible() — commands, questions, replies
// and paths were written by a model or a repository, and the log file itself may have been edited — so no control
// or bidi character ever reaches the terminal. Unknown kinds and torn lines are shown, never skipped.
import { visible } from '../core/visible.js';
import type { AuditEntry, TornLine } from './reader.js';

export interface FormatOptions {
  /** Characters kept of a long text field (a command, a reply) before `… [+N chars]`. @default 160 */
  readonly maxText?: number;
}

type Details = Record<string, unknown>;

const KIND_WIDTH = 19;

/** `2025-06-01 12:34:56.789Z  a1b2c3d4/t1 #2  approval.decided     approved once · git push origin main`. */
export function formatEntry(entry: AuditEntry, opts: FormatOptions = {}): string {
  if (entry.torn === true) return formatTorn(entry);
  const max = opts.maxText ?? 160;
  const time = typeof entry.time === 'string' ? safe(entry.time, 40).replace('T', ' ') : '?'; // a hand-edited log may hold anything
  let who = safe(entry.session, 24);
  if (entry.thread !== undefined) who += `/${safe(entry.thread, 32)}`;
  if (entry.turn !== undefined) who += ` #${entry.turn}`;
  const kind = safe(entry.kind, 40);
  const details: Details = entry.details && typeof entry.details === 'object' ? entry.details : {};
  const summary = summarize(entry.kind, details, max);
  return `${time}  ${who}  ${kind.padEnd(KIND_WIDTH)} ${summary}`.trimEnd();
}

function formatTorn(entry: TornLine): string {
  const where = `${entry.file.slice(entry.file.lastIndexOf('/') + 1)}:${entry.line}`;
  return `(torn line ${where}, not a whole event) ${visible(entry.raw, { maxChars: 200 })}`;
}

/** A string from the log, made safe to print. */
function safe(value: unknown, maxChars: number): string {
  if (value === undefined || value === null) return '';
  const s = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return visible(s, { maxChars });
}

function str(d: Details, key: string, max: number): string | undefined {
  const v = d[key];
  if (v === undefined || v === null || v === '') return undefined;
  return safe(v, max);
}

/** Joins the parts that are present with ` · `. */
function join(...parts: Array<string | undefined | false>): string {
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' · ');
}

function secs(d: Details): string | undefined {
  return typeof d.seconds === 'number' ? `${d.seconds.toFixed(d.seconds < 10 ? 2 : 1)}s` : undefined;
}

function escalation(d: Details): string | undefined {
  const ch = str(d, 'channel', 20);
  const id = str(d, 'escalationId', 20);
  if (!ch && !id) return undefined;
  return `(${[ch, id].filter(Boolean).join(' ')})`;
}

/** The essentials of each kind wisp writes; anything else gets its details as compact JSON. */
export function summarize(kind: string, d: Details, max = 160): string {
  switch (kind) {
    case 'session.start': {
      const tools = Array.isArray(d.tools) ? d.tools.map((t) => safe(t, 30)).join(',') : undefined;
      const sb = d.sandbox as { enabled?: unknown; kind?: unknown; works?: unknown } | undefined;
      const sandbox =
        sb && typeof sb === 'object'
          ? sb.enabled === false
            ? 'sandbox off'
            : `sandbox ${safe(sb.kind, 20)}${sb.works === false ? ' (not working)' : ''}`
          : undefined;
      return join(
        str(d, 'entryPoint', 20),
        str(d, 'model', 80),
        d.channel !== undefined ? `escalation ${safe(d.channel, 20)}` : undefined,
        d.threshold !== undefined ? `threshold ${safe(d.threshold, 20)}` : undefined,
        sandbox,
        tools !== undefined ? `tools ${tools || 'none'}` : undefined,
        d.parent !== undefined ? `parent ${safe(d.parent, 24)}` : undefined,
        str(d, 'cwd', 120),
      );
    }
    case 'session.end':
      return join(str(d, 'reason', 60));
    case 'prompt':
      return join(str(d, 'text', max));
    case 'response':
      return join(str(d, 'text', max), secs(d), d.stopped !== undefined ? `stopped: ${safe(d.stopped, 40)}` : undefined);
    case 'tool.call':
      return join(str(d, 'tool', 40), d.arguments !== undefined ? safe(d.arguments, max) : undefined);
    case 'tool.result':
      return join(
        str(d, 'tool', 40),
        d.isError === true ? 'error' : undefined,
        typeof d.bytes === 'number' ? `${d.bytes} bytes` : undefined,
        secs(d),
        d.isError === true ? str(d, 'output', max) : undefined,
      );
    case 'policy.decision':
      return join(
        str(d, 'verdict', 20),
        str(d, 'command', max),
        str(d, 'reason', max),
        d.verdict === 'allowed' && d.sandbox === false ? 'unsandboxed' : undefined,
        d.verdict === 'allowed' && d.network === false ? 'no network' : undefined,
        str(d, 'origin', 20),
      );
    case 'classifier.verdict':
      return join(
        str(d, 'level', 20),
        str(d, 'command', max),
        Array.isArray(d.reasons) && d.reasons.length > 0 ? d.reasons.map((r) => safe(r, 80)).join('; ') : undefined,
        d.pattern !== undefined ? `pattern ${safe(d.pattern, 80)}` : undefined,
      );
    case 'approval.requested':
      return join(str(d, 'level', 20), str(d, 'command', max), d.pattern !== undefined ? `pattern ${safe(d.pattern, 80)}` : undefined, escalation(d));
    case 'approval.decided':
      return join(
        [str(d, 'decision', 30), str(d, 'scope', 20)].filter(Boolean).join(' '),
        str(d, 'command', max),
        d.downgradedFrom !== undefined ? `downgraded from ${safe(d.downgradedFrom, 20)}` : undefined,
        str(d, 'reason', max),
        d.approvalID !== undefined ? `stored ${safe(d.approvalID, 20)}` : undefined,
        escalation(d),
      );
    case 'inquiry.requested':
      return join(str(d, 'question', max), escalation(d));
    case 'inquiry.decided':
      return join(
        str(d, 'decision', 30),
        str(d, 'answer', max),
        d.answeredBy !== undefined ? `by ${safe(d.answeredBy, 20)}` : undefined,
        str(d, 'reason', max),
        escalation(d),
      );
    case 'escalation.pending':
      return join(str(d, 'verb', 20), str(d, 'command', max) ?? str(d, 'question', max), escalation(d), str(d, 'answer', 80));
    case 'escalation.answered':
      return join(
        str(d, 'verb', 20),
        str(d, 'decision', 20),
        d.via !== undefined ? `via ${safe(d.via, 30)}` : undefined,
        d.answeredBy !== undefined ? `by ${safe(d.answeredBy, 20)}` : undefined,
        escalation(d),
      );
    case 'escalation.settled':
      return join(str(d, 'outcome', 20), str(d, 'verb', 20), str(d, 'reason', max), escalation(d));
    case 'command.outcome': {
      const status =
        d.sandboxRefusal !== undefined
          ? 'not run (sandbox unavailable)'
          : d.timedOut === true
            ? 'timed out'
            : d.exitStatus === null || d.exitStatus === undefined
              ? d.signal !== undefined
                ? `killed by ${safe(d.signal, 12)}`
                : 'did not run'
              : `exit ${safe(d.exitStatus, 12)}`;
      return join(status, str(d, 'command', max), secs(d), d.truncated === true ? 'output truncated' : undefined, str(d, 'origin', 20));
    }
    case 'file.write':
      return join(str(d, 'mode', 20), str(d, 'path', max), typeof d.bytes === 'number' ? `${d.bytes} bytes` : undefined, d.created === true ? 'created' : undefined);
    case 'mcp.request':
      return join(str(d, 'tool', 40) ?? str(d, 'method', 40), d.arguments !== undefined ? safe(d.arguments, max) : undefined);
    case 'mcp.result':
      return join(str(d, 'tool', 40) ?? str(d, 'method', 40), d.isError === true ? 'error' : undefined, secs(d), str(d, 'text', max));
    case 'config.change': {
      const arrow = `${safe(d.before === undefined ? null : d.before, 60)} → ${safe(d.after === undefined ? null : d.after, 60)}`;
      const weakens = Array.isArray(d.weakens) && d.weakens.length > 0 ? `weakens: ${d.weakens.map((w) => safe(w, 100)).join('; ')}` : undefined;
      return join(`${str(d, 'action', 10) ?? 'set'} ${str(d, 'key', 60) ?? '?'}`, arrow, weakens);
    }
    case 'notification':
      return join(str(d, 'outcome', 20), str(d, 'title', 80), str(d, 'reason', max), escalation(d));
    case 'error':
      return join(str(d, 'message', max), str(d, 'context', 80), str(d, 'tool', 40), str(d, 'model', 80));
    default:
      return Object.keys(d).length > 0 ? safe(d, max) : '';
  }
}
