// Issue #8 §1: every surface that shows model-derived text gets the same hostile samples (test/hardening/hostile.ts:
// ESC/CSI, CR, backspace, OSC, C1, bidi overrides and isolates, zero-width, tag characters, a BOM, a 10 KB line) in
// every model-derived field it shows, and must show each one escaped — never raw, never stripped, never unbounded.
// In-process surfaces here: the chat dialogs and transcript (ui/), the MCP elicitation messages and forms, the MCP
// result notes and progress lines, the queue's request description and answer report, desktop notices, and
// `wisp logs` lines. The CLI surfaces (`wisp respond` gate lines, `wisp approvals|inquiries pending`) are in
// display.cli.test.ts.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import type { AuditEntry } from '../../src/audit/reader.js';
import { formatEntry } from '../../src/audit/format.js';
import { noticeFor } from '../../src/escalation/queue/notify.js';
import { QueueChannel } from '../../src/escalation/queue/asker.js';
import { answerFromTerminal } from '../../src/escalation/queue/answer-terminal.js';
import { describeRequest } from '../../src/escalation/queue/display.js';
import { bindingOf, type QueueRequest, type UnboundRequest } from '../../src/escalation/queue/files.js';
import type { ApprovalRequest } from '../../src/escalation/types.js';
import { approvalMessage } from '../../src/mcp/dialog-wording.js';
import { inquiryForm } from '../../src/mcp/inquiry-form.js';
import { wispPaths } from '../../src/core/paths.js';
import { ApprovalDialog } from '../../ui/ApprovalDialog.js';
import type { DialogRequest } from '../../ui/dialog-store.js';
import { InquiryDialog } from '../../ui/InquiryDialog.js';
import { StatusLine } from '../../ui/StatusLine.js';
import { Transcript } from '../../ui/Transcript.js';
import type { Entry } from '../../ui/transcript-entries.js';
import { run, say, ask, startHarness, waitFor, type Harness } from '../mcp/helpers.js';
import { firstRaw, HOSTILE, withoutStyles, type HostileSample } from './hostile.js';

afterEach(() => cleanup());

/** Checks one surface's output for one sample: escaped form present, raw sequences absent, bounded. */
function expectSafe(out: string, sample: HostileSample, opts: { multiline?: boolean; styles?: boolean; bound?: number } = {}): void {
  const text = opts.styles ? withoutStyles(out) : out;
  expect(firstRaw(text, { multiline: opts.multiline ?? true }), sample.name).toBeUndefined();
  for (const raw of sample.raw) expect(text.includes(raw), `${sample.name}: raw ${JSON.stringify(raw.slice(0, 12))}`).toBe(false);
  expect(text, sample.name).toContain(sample.shown);
  expect(text.length, `${sample.name}: output is bounded`).toBeLessThan(opts.bound ?? 40_000);
}

/** Every string inside a JSON value (keys included). */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)]);
  return [];
}

const approval = (t: string): ApprovalRequest => ({
  command: t,
  line: `ls && ${t}`,
  pattern: t,
  directory: `/work/${t}`,
  level: 'moderate',
  reasons: [`reason: ${t}`],
  ask: `ask: ${t}`,
  thread: 't1',
});

function queueRequest(verb: 'approval' | 'inquiry', t: string): QueueRequest {
  const common = {
    id: 'q1',
    mode: 'waiting' as const,
    thread: `thread ${t}`.slice(0, 256),
    client: `client ${t}`.slice(0, 256),
    pid: process.pid,
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
  };
  const unbound: UnboundRequest =
    verb === 'approval'
      ? { ...common, verb, command: t, line: `ls; ${t}`, pattern: t, directory: `/w/${t}`.slice(0, 4096), level: 'dangerous', reasons: [t.slice(0, 2000)], ask: t.slice(0, 200) }
      : { ...common, verb, question: t, schema: { type: 'object', properties: { [`k`]: { type: 'string', description: t } } } };
  return { ...unbound, binding: bindingOf(unbound) } as QueueRequest;
}

describe.each(HOSTILE)('$name', (sample) => {
  const t = sample.text;

  it('chat approval dialog (ui/ApprovalDialog): command, line, directory, reasons, pattern, ask, client, thread', () => {
    const request = {
      verb: 'approval',
      id: 'a1',
      source: { kind: 'queue', client: `client ${t}`, thread: `thread ${t}`, pid: 4242 },
      raisedAt: Date.now(),
      request: approval(t),
    } as DialogRequest & { verb: 'approval' };
    const frame = render(<ApprovalDialog request={request} onAnswer={() => undefined} />).lastFrame()!;
    expectSafe(frame, sample, { styles: true });
  });

  it('chat inquiry dialog (ui/InquiryDialog): question, and a form from a flat schema', () => {
    const schema = { type: 'object', properties: { choice: { type: 'string', description: t, enum: [t, 'b'] } } };
    for (const req of [{ question: t }, { question: t, schema }]) {
      const request = { verb: 'inquiry', id: 'q1', source: { kind: 'local' }, raisedAt: Date.now(), request: req } as DialogRequest & { verb: 'inquiry' };
      const frame = render(<InquiryDialog request={request} onAnswer={() => undefined} />).lastFrame()!;
      expectSafe(frame, sample, { styles: true });
    }
  });

  it('chat transcript (ui/Transcript): every kind of entry', () => {
    const entries: Entry[] = [
      { id: 1, kind: 'prompt', text: t },
      { id: 2, kind: 'reply', text: t },
      { id: 3, kind: 'gate', tool: 'run_command', subject: t, allowed: false, note: `denied: ${t}` },
      { id: 4, kind: 'output', text: `${t}\n${t}` },
      { id: 5, kind: 'inquiry', question: t, outcome: t },
      { id: 6, kind: 'remote', what: t, client: t, thread: t, outcome: t },
      { id: 7, kind: 'error', text: t },
      { id: 8, kind: 'failed', tool: t, error: `find text not found in ${t}` },
    ];
    const frame = render(<Transcript entries={entries} />).lastFrame()!;
    expectSafe(frame, sample, { styles: true, bound: 60_000 });
  });

  it('chat status line (ui/StatusLine): a model name from the config or /model', () => {
    const frame = render(<StatusLine info={{ model: `script:${t}`, channel: 'terminal', sandbox: `bwrap ${t}`, sandboxOk: false }} dialogOpen={false} waiting={0} />).lastFrame()!;
    expect(firstRaw(withoutStyles(frame))).toBeUndefined();
    for (const raw of sample.raw) expect(withoutStyles(frame).includes(raw)).toBe(false);
  });

  it('MCP elicitation message (src/mcp/elicitation.ts): approval', () => {
    expectSafe(approvalMessage(approval(t), { timeoutMs: 600_000, queueId: 'q1' }), sample);
  });

  it('MCP elicitation form (src/mcp/elicitation.ts): inquiry question, schema titles, descriptions and choices', () => {
    const flat = { type: 'object', properties: { choice: { type: 'string', title: t, description: t, enum: [t, 'b'] }, n: { type: 'integer', title: t } } };
    const nested = { type: 'object', properties: { deep: { type: 'object', description: t } } };
    for (const schema of [undefined, flat, nested]) {
      const form = inquiryForm({ question: t, ...(schema ? { schema } : {}) }, 600_000, 'q1');
      expectSafe(form.message, sample);
      // Everything the client renders: titles, descriptions, choices and defaults of the requested schema.
      const sent = strings(form.requestedSchema).join('\n');
      expect(firstRaw(sent, { multiline: false }), 'requestedSchema (as the client decodes it)').toBeUndefined();
      for (const raw of sample.raw) expect(sent.includes(raw), 'requestedSchema holds it raw').toBe(false);
    }
  });

  it('queue request as a person is shown it before answering (describeRequest), and the desktop notice', () => {
    for (const verb of ['approval', 'inquiry'] as const) {
      const req = queueRequest(verb, t);
      if (sample.name === 'a 10 KB line') {
        // Issue 15: the person sees the whole request before answering, so this surface is never cut.
        expect(describeRequest(req)).toContain(t);
        continue;
      }
      expectSafe(describeRequest(req), sample);
      const n = noticeFor(req);
      const notice = [n.title, n.subtitle, n.body].join('\n');
      expect(firstRaw(notice)).toBeUndefined();
      for (const raw of sample.raw) expect(notice.includes(raw)).toBe(false);
    }
  });

  it('`wisp logs` lines (src/audit/format.ts): details of every kind that carries model text, and the envelope', () => {
    const base = { schema: 1, id: 'e1', time: new Date().toISOString(), version: '1', pid: 1, session: `s${t}`, thread: `t${t}`, turn: 1 };
    const details: Array<[string, Record<string, unknown>]> = [
      ['prompt', { text: t }],
      ['response', { text: t }],
      ['tool.call', { tool: 'run_command', arguments: { command: t } }],
      ['tool.result', { tool: 'run_command', output: t }],
      ['classifier.verdict', { command: t, line: t, executable: t, pattern: t, level: 'moderate', reasons: [t] }],
      ['policy.decision', { command: t, verdict: 'denied', reason: t }],
      ['approval.requested', { command: t, pattern: t, line: t, directory: t, reasons: [t], channel: 'queue', escalationId: 'x' }],
      ['approval.decided', { command: t, decision: 'denied', reason: t }],
      ['inquiry.requested', { question: t }],
      ['inquiry.decided', { answer: t, decision: 'answered' }],
      ['escalation.pending', { command: t, question: t, client: t }],
      ['escalation.answered', { via: t, answeredBy: t }],
      ['escalation.settled', { reason: t, outcome: 'refused' }],
      ['command.outcome', { command: t, stdout: t, stderr: t, exitStatus: 0 }],
      ['file.write', { path: t }],
      ['mcp.request', { tool: 'respond', arguments: { prompt: t } }],
      ['mcp.result', { tool: 'respond', text: t }],
      ['error', { message: t }],
      [`kind${t}`, { anything: t }],
    ];
    for (const [kind, d] of details) {
      const line = formatEntry({ ...base, kind, details: d } as AuditEntry);
      expect(firstRaw(line, { multiline: false }), kind).toBeUndefined();
      for (const raw of sample.raw) expect(line.includes(raw), kind).toBe(false);
    }
    const torn = formatEntry({ torn: true, raw: `{"kind":"${t}`, file: '/x/audit.jsonl', line: 3 });
    expect(firstRaw(torn, { multiline: false })).toBeUndefined();
    const editedTime = formatEntry({ ...base, time: t, kind: 'prompt', details: {} } as AuditEntry);
    expect(firstRaw(editedTime, { multiline: false }), 'a hand-edited time field').toBeUndefined();
  });
});

describe('the queue answer, as `wisp approvals approve` prints it (src/escalation/queue/answer-terminal.ts)', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'wisp-hard-disp-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('shows the request and the report line escaped, for every sample', async () => {
    const evil = HOSTILE.map((s) => s.text).join(' ');
    const home = join(root, 'home');
    mkdirSync(home, { mode: 0o700, recursive: true });
    const paths = wispPaths(home);
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 60, client: 'x' });
    const short = HOSTILE.filter((x) => x.text.length < 100).map((x) => x.text).join(' ');
    const request: ApprovalRequest = { command: evil, line: `ls; ${evil}`, pattern: evil, directory: `/work/${short}`, level: 'moderate', reasons: [short], ask: short.slice(0, 200) };
    const raised = channel.raise(
      { verb: 'approval', request },
      { session: 's', thread: 't1', client: `client ${HOSTILE[0]!.text}`, timeoutMs: 20_000, escalationId: 'disp1' },
    );
    await waitFor(() => existsSync(join(paths.pending, 'disp1.request.json')));
    let printed = '';
    await answerFromTerminal({
      paths,
      audit: new MemoryAudit(),
      ctx: { session: 'cli' },
      id: 'disp1',
      verb: 'approval',
      body: { decision: 'no' },
      stdinIsTTY: true,
      print: (s) => (printed += s),
    });
    expect(await raised).toMatchObject({ kind: 'declined' });
    expect(firstRaw(printed)).toBeUndefined();
    // Shown whole (issue 15): the 10 KB line too; every raw sequence of the others is escaped.
    for (const s of HOSTILE.filter((x) => x.name !== 'a 10 KB line')) for (const raw of s.raw) expect(printed.includes(raw), s.name).toBe(false);
    expect(printed).toContain('A'.repeat(10_240));
    expect(printed).toContain('\\x1b[2K');
    expect(printed).toContain('<U+202E>');
  });
});

describe('the MCP result and progress (src/mcp/server.ts)', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('refusals, pending notes and progress lines show hostile commands and questions escaped', async () => {
    const evil = HOSTILE.filter((s) => s.text.length < 1000).map((s) => s.text).join(' ');
    const progress: string[] = [];
    h = await startHarness({
      channel: 'deny',
      responses: [run(`ls; touch '${evil}'`), ask(evil), run(`echo '${evil}'`), say('done')],
    });
    const r = await h.respond({ prompt: 'go' }, { onprogress: (p) => void (p.message !== undefined && progress.push(p.message)) });
    const texts = r.content.map((c) => ('text' in c ? c.text : '')).join('\n');
    expect(r.structuredContent.refusals.length).toBeGreaterThan(0);
    const shown = [texts.replace(/^done$/m, ''), ...progress].join('\n');
    expect(firstRaw(shown)).toBeUndefined();
    for (const s of HOSTILE) for (const raw of s.raw) expect(shown.includes(raw), s.name).toBe(false);
    expect(shown).toContain('<U+202E>');
    // The structured result is data for the calling agent: the command is there as given, unescaped.
    expect(r.structuredContent.refusals[0]!.command).toBe(`ls; touch '${evil}'`);
    await waitFor(() => progress.length > 0 || true);
  });
});
