// The channel conformance suite: every channel (and any future one) must honour the standing rules — both verbs,
// each outcome it can give, the bounded wait, silence as refusal, the dangerous downgrade, and every decision audited
// with the channel's name. Each channel comes with a driver that plays the person.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { AutoChannel, DenyChannel } from '../../src/escalation/channels.js';
import { PendingEscalations } from '../../src/escalation/pending.js';
import { QueueChannel } from '../../src/escalation/queue/asker.js';
import { answerRequest, listPending } from '../../src/escalation/queue/answerer.js';
import { RaceChannel } from '../../src/escalation/race.js';
import { ResultChannel } from '../../src/escalation/result.js';
import type { ChannelName } from '../../src/core/channels.js';
import type { EscalationChannel } from '../../src/escalation/types.js';
import type { Scope } from '../../src/core/scopes.js';
import { Gate } from '../../src/gate/gate.js';
import { initParser } from '../../src/gate/parse.js';
import { ApprovalCache } from '../../src/gate/session-approvals.js';
import { wispPaths } from '../../src/core/paths.js';
import { askOperatorTool } from '../../src/tools/ask-operator.js';
import { TurnReceipt, type ToolContext } from '../../src/tools/types.js';
import { DialogStore } from '../../ui/dialog-store.js';
import { TerminalChannel } from '../../ui/terminal-channel.js';

/** What the person does when the channel asks. */
type Act = { approve: Scope } | { decline: true } | { answer: string } | { silence: true };

interface Harness {
  readonly channel: EscalationChannel;
  readonly audit: MemoryAudit;
  /** Arranges how the next escalation is answered (for channels that reach a person). */
  next(act: Act): void;
}

interface ChannelSpec {
  readonly name: ChannelName;
  /** Whether a person can be reached (auto/deny never ask anyone). */
  readonly asks: boolean;
  make(): Harness;
}

function queueHarness(): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'wisp-conf-'));
  const home = join(dir, 'home');
  mkdirSync(home, { mode: 0o700 });
  const paths = wispPaths(home);
  const audit = new MemoryAudit();
  const channel = new QueueChannel({ paths, audit, pendingSeconds: 60, pollMs: 10 });
  let act: Act = { silence: true };
  // The person: watches the queue and answers whatever appears, as `wisp approvals approve` would.
  const timer = setInterval(() => {
    for (const req of listPending(paths)) {
      if ('silence' in act) continue;
      const body =
        'approve' in act
          ? { decision: act.approve }
          : 'decline' in act
            ? req.verb === 'approval'
              ? { decision: 'no' as const }
              : { declined: true as const }
            : { text: act.answer };
      try {
        answerRequest(paths, req, body, { via: 'test' });
      } catch {
        /* answered already */
      }
    }
  }, 5);
  timer.unref();
  return { channel, audit, next: (a) => (act = a) };
}

/** The chat's channel, with the person pressing keys in the dialog store (what the App does on y/s/p/a/n/Enter). */
function terminalHarness(): Harness {
  const store = new DialogStore();
  let act: Act = { silence: true };
  const timer = setInterval(() => {
    if ('silence' in act) return;
    const a = act;
    for (const id of store.ids()) {
      store.settle(
        id,
        'approve' in a ? { kind: 'approved', scope: a.approve } : 'decline' in a ? { kind: 'declined', reason: 'declined by the person (wisp chat)' } : { kind: 'answered', text: a.answer },
      );
    }
  }, 5);
  timer.unref();
  return { channel: new TerminalChannel(store), audit: new MemoryAudit(), next: (a) => (act = a) };
}

const SPECS: ChannelSpec[] = [
  { name: 'terminal', asks: true, make: terminalHarness },
  { name: 'auto', asks: false, make: () => ({ channel: new AutoChannel(), audit: new MemoryAudit(), next: () => undefined }) },
  { name: 'deny', asks: false, make: () => ({ channel: new DenyChannel(), audit: new MemoryAudit(), next: () => undefined }) },
  { name: 'queue', asks: true, make: queueHarness },
  {
    name: 'elicitation',
    asks: true,
    // A race whose first leg always fails (no dialog): the queue leg must carry every rule on its own.
    make: () => {
      const q = queueHarness();
      const broken: EscalationChannel = { name: 'elicitation', raise: async () => Promise.reject(new Error('client has no elicitation')) };
      return { ...q, channel: new RaceChannel('elicitation', [broken, q.channel]) };
    },
  },
];

beforeAll(async () => {
  await initParser();
});

function gateFor(h: Harness, timeoutSeconds = 5) {
  const config = ConfigSchema.parse({ escalation: { timeoutSeconds } });
  const gate = new Gate({ config, audit: h.audit, channel: h.channel, sessionApprovals: new ApprovalCache(), source: 'test' });
  return (line: string) => gate.clear({ line, cwd: '/work', ctx: { session: 's' }, turnApprovals: new ApprovalCache() });
}

function inquire(h: Harness, timeoutSeconds = 5) {
  const config = ConfigSchema.parse({ escalation: { timeoutSeconds } });
  const receipt = new TurnReceipt();
  const ctx = {
    config,
    audit: h.audit,
    ctx: { session: 's', thread: 't' },
    channel: h.channel,
    receipt,
    toolCallId: 'call_1',
  } as unknown as ToolContext;
  return async (question: string) => ({ out: await askOperatorTool.run({ question }, ctx), receipt });
}

describe.each(SPECS)('channel conformance: $name', (spec) => {
  it('records its name on every approval event', async () => {
    const h = spec.make();
    h.next({ approve: 'once' });
    await gateFor(h)('touch a');
    const events = h.audit.events.filter((e) => e.kind.startsWith('approval.') || e.kind === 'escalation.settled');
    expect(events.length).toBeGreaterThanOrEqual(3);
    // A race records its own name when it asks and the leg that answered when it settles.
    const names = spec.name === 'elicitation' ? ['elicitation', 'queue'] : [spec.name];
    for (const e of events) expect(names, e.kind).toContain(e.details.channel);
  });

  it('answers an inquiry with one of the documented outcomes, audited with its name', async () => {
    const h = spec.make();
    h.next({ answer: 'notes.txt' });
    const { out, receipt } = await inquire(h)('Which file?');
    const outcome = receipt.inquiries[0]!.outcome;
    if (spec.name === 'auto') expect(out.content).toContain('no operator (auto)');
    if (spec.name === 'deny') expect(outcome).toBe('declined');
    if (spec.asks) expect(out.content).toContain('notes.txt');
    expect(h.audit.ofKind('inquiry.decided')).toHaveLength(1);
    expect(h.audit.ofKind('inquiry.requested')[0]!.details.channel).toBe(spec.name);
  });

  if (!spec.asks) return;

  it.each(['once', 'session', 'project', 'always'] as const)('carries the scope %s', async (scope) => {
    const h = spec.make();
    h.next({ approve: scope });
    const d = await gateFor(h)('touch a');
    expect(d.allowed).toBe(true);
    expect(h.audit.ofKind('approval.decided')[0]!.details).toMatchObject({ decision: 'approved', scope: scope === 'project' || scope === 'always' ? scope : scope });
  });

  it('downgrades a dangerous project answer to session', async () => {
    const h = spec.make();
    h.next({ approve: 'project' });
    await gateFor(h)('git push --force origin main');
    expect(h.audit.ofKind('approval.decided')[0]!.details).toMatchObject({ scope: 'session', downgradedFrom: 'project' });
  });

  it('refuses when the person declines', async () => {
    const h = spec.make();
    h.next({ decline: true });
    const d = await gateFor(h)('touch a');
    expect(d.allowed).toBe(false);
    expect(h.audit.ofKind('approval.decided')[0]!.details).toMatchObject({ decision: 'denied' });
    const q = spec.make();
    q.next({ decline: true });
    const { receipt } = await inquire(q)('Which?');
    expect(receipt.inquiries[0]!.outcome).toBe('declined');
  });

  it('waits no longer than the bound, and silence is a refusal', async () => {
    const h = spec.make();
    h.next({ silence: true });
    const started = Date.now();
    const d = await gateFor(h, 1)('touch a');
    const took = Date.now() - started;
    expect(d.allowed).toBe(false);
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(4000);
    expect(h.audit.ofKind('approval.decided')[0]!.details).toMatchObject({ decision: 'timed-out' });
    expect(h.audit.ofKind('escalation.settled').at(-1)!.details).toMatchObject({ outcome: 'timed-out' });
    const q = spec.make();
    const { receipt } = await inquire(q, 1)('Which?');
    expect(receipt.inquiries[0]!.outcome).toBe('unanswered');
  });
});

describe('channel conformance: result', () => {
  it('returns inquiries as pending and never lets the caller redeem an approval', async () => {
    const pending = new PendingEscalations(60_000);
    const dir = mkdtempSync(join(tmpdir(), 'wisp-conf-'));
    const home = join(dir, 'home');
    mkdirSync(home, { mode: 0o700 });
    const audit = new MemoryAudit();
    const queue = new QueueChannel({ paths: wispPaths(home), audit, pendingSeconds: 60 });
    const channel = new ResultChannel(pending, queue);
    const h: Harness = { channel, audit, next: () => undefined };
    const { receipt } = await inquire(h)('Which?');
    expect(receipt.inquiries[0]!.outcome).toBe('pending');
    const d = await gateFor(h)('touch a');
    expect(d.allowed).toBe(false);
    if (d.allowed) return;
    expect(d.cause).toBe('pending');
    expect(pending.redeem(d.escalationId!, 't', 'yes')).toMatchObject({ ok: false, code: 'approval' });
    // The approval travels the queue (a person answers it there), and is audited as such.
    expect(audit.ofKind('approval.requested')[0]!.details.channel).toBe('queue');
    channel.dropAll();
  });
});
