// The dialog's answer is read by wisp against the form it sent, not left to the SDK's checks or their wording
// (ADR 0097): an SDK version that checks less, or words its errors differently, cannot turn a malformed answer into
// a yes or into a silent wait on the queue. Driven through a server stand-in that answers as such an SDK would.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import type { Escalation, RaiseContext } from '../../src/escalation/types.js';
import { ElicitationChannel, UNREADABLE_ANSWER, type ElicitingServer } from '../../src/mcp/elicitation.js';

/** A server whose elicitation returns `answer` unchecked (or fails with it), by either entry point. */
function server(answer: () => Promise<unknown>): ElicitingServer {
  const send = () => answer();
  return {
    getClientCapabilities: () => ({ elicitation: { form: {} } }),
    request: send,
    // The entry point used before ADR 0097, answering the same way: the test fails on the old code too.
    elicitInput: send,
  } as unknown as ElicitingServer;
}

const ctx: RaiseContext = { session: 's', timeoutMs: 60_000, escalationId: 'e1234567' };
const inquiry = (schema: Record<string, unknown>): Escalation => ({ verb: 'inquiry', request: { question: 'How many?', schema } });
const approval: Escalation = {
  verb: 'approval',
  request: { command: 'touch x', line: 'touch x', pattern: 'touch x', directory: '/tmp', level: 'moderate', reasons: ['writes a file'] },
} as Escalation;

describe('elicitation read by wisp, whatever the SDK checks', () => {
  it('attack: a flat form answered with a word for an integer field, unchecked by the SDK, is a refusal (before: answered)', async () => {
    const audit = new MemoryAudit();
    const ch = new ElicitationChannel({ server: server(async () => ({ action: 'accept', content: { n: 'lots; rm -rf ~' } })), persistDays: 30, audit });
    const out = await ch.raise(inquiry({ type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] }), ctx);
    expect(out.kind).toBe('declined');
    expect((out as { reason: string }).reason).toContain(UNREADABLE_ANSWER);
    expect(audit.ofKind('escalation.answered')[0]!.details).toMatchObject({ channel: 'elicitation', unreadable: expect.any(String) as unknown });
  });

  it('attack: a flat form answered below its minimum, unchecked by the SDK, is a refusal', async () => {
    const ch = new ElicitationChannel({ server: server(async () => ({ action: 'accept', content: { n: 0 } })), persistDays: 30 });
    const out = await ch.raise(inquiry({ type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] }), ctx);
    expect(out.kind).toBe('declined');
  });

  it('attack: the client answers with an error in words the old match did not know — a refusal, not a failed leg (before: thrown, the race waited silently)', async () => {
    const audit = new MemoryAudit();
    const fail = async () => {
      throw new McpError(ErrorCode.InvalidParams, 'Elicitation payload rejected by schema guard');
    };
    const ch = new ElicitationChannel({ server: server(fail), persistDays: 30, audit });
    const out = await ch.raise(approval, ctx);
    expect(out.kind).toBe('declined');
    expect((out as { reason: string }).reason).toContain(UNREADABLE_ANSWER);
    expect(audit.ofKind('escalation.answered')).toHaveLength(1);
  });

  it('an internal error from the client is a refusal too; a closed connection or a missing method stays a failed leg', async () => {
    const internal = new ElicitationChannel({
      server: server(async () => {
        throw new McpError(ErrorCode.InternalError, 'boom');
      }),
      persistDays: 30,
    });
    expect((await internal.raise(approval, ctx)).kind).toBe('declined');
    for (const code of [ErrorCode.ConnectionClosed, ErrorCode.MethodNotFound]) {
      const ch = new ElicitationChannel({
        server: server(async () => {
          throw new McpError(code, 'gone');
        }),
        persistDays: 30,
      });
      await expect(ch.raise(approval, ctx)).rejects.toThrow(/gone/);
    }
  });

  it('attack: a result that is not a dialog result at all (no action) is a refusal, never a yes', async () => {
    const ch = new ElicitationChannel({ server: server(async () => ({ content: { scope: 'always' } })), persistDays: 30 });
    const out = await ch.raise(approval, ctx);
    expect(out.kind).toBe('declined');
  });

  it('a well-formed answer still passes', async () => {
    const ch = new ElicitationChannel({ server: server(async () => ({ action: 'accept', content: { n: '3' } })), persistDays: 30 });
    const out = await ch.raise(inquiry({ type: 'object', properties: { n: { type: 'integer', enum: [1, 3] } }, required: ['n'] }), ctx);
    expect(out).toEqual({ kind: 'answered', text: '{"n":3}' });
  });
});
