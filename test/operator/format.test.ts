// src/audit/format.ts: one readable, safe line per event; torn lines and unknown kinds shown, never dropped.
import { describe, expect, it } from 'vitest';
import { formatEntry, summarize } from '../../src/audit/format.js';
import { AUDIT_KINDS } from '../../src/audit/kinds.js';
import type { AuditEntry } from '../../src/audit/reader.js';

const event = (kind: string, details: Record<string, unknown>, extra: Record<string, unknown> = {}): AuditEntry =>
  ({ schema: 1, id: 'abcd', time: '2025-06-01T12:34:56.789Z', version: '0.1.0', pid: 1, session: 's1', kind, details, ...extra }) as AuditEntry;

// Any character that could move the cursor, recolour, or reorder text.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

describe('formatEntry', () => {
  it('shows time, session/thread, turn, kind and the essentials', () => {
    const line = formatEntry(
      event('approval.decided', { command: 'git push', decision: 'approved', scope: 'session', channel: 'terminal', escalationId: 'e1' }, { thread: 't9', turn: 2 }),
    );
    expect(line).toBe('2025-06-01 12:34:56.789Z  s1/t9 #2  approval.decided    approved session · git push · (terminal e1)');
  });

  it('summarises every kind wisp writes without throwing, even with empty details', () => {
    for (const kind of AUDIT_KINDS) {
      expect(() => formatEntry(event(kind, {}))).not.toThrow();
      expect(formatEntry(event(kind, {}))).toContain(kind);
    }
  });

  it.each([
    ['command.outcome', { command: 'ls', exitStatus: 0, seconds: 0.012 }, 'exit 0 · ls · 0.01s'],
    ['command.outcome', { command: 'sleep 99', exitStatus: null, timedOut: true, seconds: 60 }, 'timed out · sleep 99 · 60.0s'],
    ['command.outcome', { command: 'x', exitStatus: null, sandboxRefusal: 'no bwrap' }, 'not run (sandbox unavailable) · x'],
    ['policy.decision', { command: 'sudo ls', verdict: 'denied', reason: 'matches deny pattern' }, 'denied · sudo ls · matches deny pattern'],
    ['classifier.verdict', { command: 'rm -rf b', level: 'dangerous', reasons: ['recursive deletion'], pattern: 'rm -rf b' }, 'dangerous · rm -rf b · recursive deletion · pattern rm -rf b'],
    ['config.change', { action: 'set', key: 'sandbox.enabled', before: true, after: false, weakens: ['sandbox.enabled false: commands run unconfined'] }, 'set sandbox.enabled · true → false · weakens: sandbox.enabled false: commands run unconfined'],
    ['session.start', { entryPoint: 'respond', model: 'script:/a.json', tools: ['run_command'], channel: 'deny' }, 'respond · script:/a.json · escalation deny · tools run_command'],
    ['tool.result', { tool: 'read_file', bytes: 120, seconds: 0.5 }, 'read_file · 120 bytes · 0.50s'],
    ['escalation.settled', { outcome: 'timed-out', verb: 'approval', channel: 'queue', escalationId: 'q1' }, 'timed-out · approval · (queue q1)'],
    ['file.write', { path: '/w/a.txt', mode: 'write', bytes: 3, created: true }, 'write · /w/a.txt · 3 bytes · created'],
  ])('%s', (kind, details, expected) => {
    expect(summarize(kind, details)).toBe(expected);
  });

  it('makes model-derived text safe: escapes, bidi overrides and newlines are shown, not obeyed', () => {
    const nasty = 'echo hi\x1b[2K\x1b]0;pwned\x07\u202Etxt.exe\nrm -rf ~';
    for (const kind of ['command.outcome', 'approval.requested', 'prompt', 'tool.call', 'mystery.kind']) {
      const line = formatEntry(event(kind, { command: nasty, text: nasty, arguments: { command: nasty }, extra: nasty }));
      expect(line, kind).not.toMatch(UNSAFE);
      expect(line).not.toContain('\n');
    }
    const line = formatEntry(event('command.outcome', { command: nasty, exitStatus: 0 }));
    expect(line).toContain('\\x1b[2K');
    expect(line).toContain('<U+202E>');
  });

  it('escapes the envelope fields too (a hand-edited log)', () => {
    const line = formatEntry(event('prompt', { text: 'x' }, { session: 's\x1b[31m', thread: 't\u202E' }));
    expect(line).not.toMatch(UNSAFE);
  });

  it('truncates long text with a count', () => {
    const line = formatEntry(event('prompt', { text: 'a'.repeat(5000) }));
    expect(line.length).toBeLessThan(400);
    expect(line).toMatch(/\[\+\d+ chars\]/);
  });

  it('shows an unknown kind with its details as JSON', () => {
    expect(formatEntry(event('future.kind', { a: 1, b: 'two' }))).toMatch(/future\.kind\s+\{"a":1,"b":"two"\}/);
  });

  it('shows a torn line with where it is, safely', () => {
    const line = formatEntry({ torn: true, raw: '{"schema":1,"kind":"pro\x1b[2J', file: '/h/logs/audit.1.jsonl', line: 7 });
    expect(line).toMatch(/^\(torn line audit\.1\.jsonl:7, not a whole event\) \{"schema":1,"kind":"pro\\x1b\[2J/);
  });
});
