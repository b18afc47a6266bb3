// The gate's decision order (design.md §3): policy → classify each part → threshold → this turn's and this
// session's answers → stored approvals (never for dangerous) → escalate. A refused part refuses the whole line.
// Any doubt — an audit write that fails, a channel that throws — refuses: the gate fails closed.
import type { AuditContext, AuditSink } from '../audit/kinds.js';
import type { Config } from '../config/schema.js';
import { escalate, type KeptApproval } from '../escalation/escalate.js';
import type { ChannelName } from '../core/channels.js';
import type { EscalationChannel } from '../escalation/types.js';
import type { Scope } from '../core/scopes.js';
import { isAbsolute, relative, resolve } from 'node:path';
import { analyzeLine, type LineAnalysis } from './analyze.js';
import { modelAuditFields, type ModelClassifier } from './model-classifier.js';
import type { ApprovalCache } from './session-approvals.js';
import { thresholdAsks, type Level } from '../core/levels.js';
import type { PartVerdict } from './types.js';

/** What the gate needs of the approval store (src/gate/store.ts). */
export interface StoreLike {
  find(pattern: string, directory: string, level: Level, reasons?: readonly string[]): { id: string; scope: string; expiresAt: string } | undefined;
  add(entry: {
    pattern: string;
    workingDirectory?: string;
    scope: 'project' | 'always';
    level: Level;
    persistDays: number;
    source: string;
    reasons?: readonly string[];
  }): { id: string; expiresAt: string };
}

export interface GateDeps {
  readonly config: Config;
  readonly audit: AuditSink;
  readonly channel: EscalationChannel;
  readonly store?: StoreLike;
  /** Answers with scope `session`, shared by every thread of this process. */
  readonly sessionApprovals: ApprovalCache;
  /** Entry point recorded as the `source` of stored approvals (`chat`, `respond`, `mcp`). */
  readonly source: string;
  /**
   * The project (launch directory). Remembered answers are kept and looked up under it, so a `workingDirectory`
   * pointing into another project never inherits that project's approvals; a line run outside it is asked every
   * time. Without it, the request's directory is the key (as before).
   */
  readonly project?: string;
  /** approval.classifier: model — a second opinion after the rules that can only raise a part's level. */
  readonly modelClassifier?: ModelClassifier;
}

export interface GateRequest {
  readonly line: string;
  readonly cwd: string;
  readonly ctx: AuditContext;
  /** Answers with scope `once` for the rest of this turn. */
  readonly turnApprovals: ApprovalCache;
  readonly signal?: AbortSignal;
  readonly client?: string;
  readonly onProgress?: (message: string) => void;
  /** A precomputed analysis (edit_file, read_file build their own); otherwise the line is analysed. */
  readonly analysis?: LineAnalysis;
}

/** One approval as the receipt shows it. */
export interface ApprovalRecord {
  readonly command: string;
  readonly level: Level;
  readonly decision:
    | 'approved'
    | 'denied'
    | 'timed-out'
    | 'pending'
    | 'cached'
    | 'cached-turn'
    | 'cached-project'
    | 'cached-always';
  readonly scope?: Scope;
  readonly channel?: ChannelName;
  readonly escalationId?: string;
  readonly downgradedFrom?: Scope;
}

export interface PendingApproval {
  readonly id: string;
  readonly verb: 'approval';
  readonly command: string;
  readonly pattern: string;
  readonly level: Level;
  readonly reasons: readonly string[];
  /** When the channel stops holding it (ISO), as its own record says. */
  readonly expiresAt?: string;
}

export type GateDecision =
  | {
      readonly allowed: true;
      readonly analysis: LineAnalysis;
      /** One human line per part: `safe by rules`, `approved (session)`, … */
      readonly notes: readonly string[];
      readonly approvals: readonly ApprovalRecord[];
      /**
       * True when every part was allowed only because it is below the approval threshold: no person, no `--yes`,
       * no session or stored approval was needed. Such a line runs contained (read-only, no network; docs/trust.md).
       */
      readonly unasked: boolean;
    }
  | {
      readonly allowed: false;
      readonly reason: string;
      readonly analysis?: LineAnalysis;
      readonly notes: readonly string[];
      readonly approvals: readonly ApprovalRecord[];
      /** `policy` refusals are never asked about; `declined`/`timed-out`/`pending` came from an escalation. */
      readonly cause: 'policy' | 'declined' | 'timed-out' | 'pending' | 'error';
      readonly escalationId?: string;
      readonly pending?: PendingApproval;
    };

export class Gate {
  constructor(private readonly deps: GateDeps) {}

  get channelName(): ChannelName {
    return this.deps.channel.name;
  }

  async clear(req: GateRequest): Promise<GateDecision> {
    try {
      return await this.decide(req);
    } catch (err) {
      // Fail closed: whatever went wrong (audit write, store, channel), nothing runs.
      const message = err instanceof Error ? err.message : String(err);
      return { allowed: false, reason: `the gate failed, so nothing ran: ${message}`, notes: [], approvals: [], cause: 'error' };
    }
  }

  private async decide(req: GateRequest): Promise<GateDecision> {
    const { config, audit } = this.deps;
    const project = this.deps.project;
    let analysis = req.analysis ?? analyzeLine(req.line, config, req.cwd, project !== undefined ? { project: resolve(project) } : {});

    if (analysis.policy === 'denied') {
      const reason = analysis.policyReason ?? 'command denied by policy';
      audit.write(
        'policy.decision',
        { command: req.line, workingDirectory: req.cwd, verdict: 'denied', reason, ...(analysis.policyRule !== undefined ? { rule: analysis.policyRule } : {}) },
        req.ctx,
      );
      return {
        allowed: false,
        reason: `command denied by policy: ${reason}`,
        analysis,
        notes: [`blocked by policy: ${reason}`],
        approvals: [],
        cause: 'policy',
      };
    }

    if (this.deps.modelClassifier) analysis = await this.deps.modelClassifier.review(analysis, req.cwd, req.signal);

    const notes: string[] = [];
    const approvals: ApprovalRecord[] = [];
    const multi = analysis.parts.length > 1;
    let unasked = true;
    for (const part of analysis.parts) {
      audit.write(
        'classifier.verdict',
        {
          command: part.text,
          line: req.line,
          executable: part.executable,
          pattern: part.pattern,
          level: part.level,
          reasons: part.reasons,
          knownSafe: part.knownSafe,
          sources: ['rules'],
          ...modelAuditFields(part),
        },
        req.ctx,
      );
      const outcome = await this.clearPart(part, req, approvals);
      if (!outcome.allowed) {
        const prefix = multi ? `${part.text}: ` : '';
        audit.write(
          'policy.decision',
          { command: req.line, workingDirectory: req.cwd, verdict: 'disapproved', reason: prefix + outcome.reason },
          req.ctx,
        );
        return {
          allowed: false,
          reason: `command not approved: ${prefix}${outcome.reason}`,
          analysis,
          notes: [...notes, outcome.note],
          approvals,
          cause: outcome.cause,
          ...(outcome.escalationId ? { escalationId: outcome.escalationId } : {}),
          ...(outcome.pending ? { pending: outcome.pending } : {}),
        };
      }
      notes.push(outcome.note);
      if (!outcome.unasked) unasked = false;
    }
    return { allowed: true, analysis, notes, approvals, unasked };
  }

  private async clearPart(
    part: PartVerdict,
    req: GateRequest,
    approvals: ApprovalRecord[],
  ): Promise<
    | { allowed: true; note: string; unasked: boolean }
    | {
        allowed: false;
        note: string;
        reason: string;
        cause: 'declined' | 'timed-out' | 'pending' | 'error';
        escalationId?: string;
        pending?: PendingApproval;
      }
  > {
    const { config, audit, store, sessionApprovals, channel } = this.deps;
    const dir = req.cwd;
    const dangerous = part.level === 'dangerous';
    // Consent means what was shown (docs/decisions/0015-consent-means-what-was-shown.md): answers are keyed by the
    // project; `once` covers exactly this part of this line; a kept answer covers only a request at no higher level
    // and with no reason the approved one did not have; some parts are asked every time.
    const project = this.deps.project;
    const keyDir = project !== undefined ? resolve(project) : dir;
    const remembered = part.askEveryTime !== true && (project === undefined || isInside(resolve(dir), keyDir));
    const onceKey = `${req.line}\0${part.text}`;

    if (!thresholdAsks(part.level, config.approval.threshold)) {
      const note = part.knownSafe ? 'safe by rules' : `${part.level}, below the approval threshold`;
      return { allowed: true, note, unasked: true };
    }
    if (remembered && req.turnApprovals.covers(keyDir, onceKey, part.level, part.reasons)) {
      audit.write('approval.decided', { command: part.text, pattern: part.pattern, decision: 'cached-turn', scope: 'once' }, req.ctx);
      approvals.push({ command: part.text, level: part.level, decision: 'cached-turn', scope: 'once' });
      return { allowed: true, note: 'approved (once, this turn)', unasked: false };
    }
    if (remembered && sessionApprovals.covers(keyDir, part.pattern, part.level, part.reasons)) {
      audit.write('approval.decided', { command: part.text, pattern: part.pattern, decision: 'cached', scope: 'session' }, req.ctx);
      approvals.push({ command: part.text, level: part.level, decision: 'cached', scope: 'session' });
      return { allowed: true, note: 'approved (session)', unasked: false };
    }
    if (remembered && !dangerous && store) {
      let stored: ReturnType<StoreLike['find']>;
      try {
        stored = store.find(part.pattern, keyDir, part.level, part.reasons);
      } catch (err) {
        // An unreadable store grants nothing: say so in the log, and ask as if it were empty.
        audit.write('error', { message: err instanceof Error ? err.message : String(err), context: 'approval store' }, req.ctx);
        stored = undefined;
      }
      if (stored) {
        const decision = stored.scope === 'always' ? 'cached-always' : 'cached-project';
        audit.write(
          'approval.decided',
          { command: part.text, pattern: part.pattern, decision, approvalID: stored.id, expiresAt: stored.expiresAt },
          req.ctx,
        );
        approvals.push({ command: part.text, level: part.level, decision });
        return { allowed: true, note: 'allowed by your standing approval', unasked: false };
      }
    }

    // Nobody has answered for this part yet: ask (or go on with the escalation the channel already holds for it).
    const { escalationId, outcome, via } = await escalate({
      escalation: {
        verb: 'approval',
        request: {
          command: part.text,
          line: req.line,
          pattern: part.pattern,
          directory: dir,
          level: part.level,
          reasons: part.reasons,
          ...(req.ctx.thread !== undefined ? { thread: req.ctx.thread } : {}),
          ...(part.ask ? { ask: part.ask } : {}),
        },
      },
      channel,
      audit,
      ctx: req.ctx,
      timeoutMs: config.escalation.timeoutSeconds * 1000,
      ...(req.client !== undefined ? { client: req.client } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      ...(req.onProgress ? { onProgress: req.onProgress } : {}),
      keep: (answered) => this.keep(answered, { part, remembered, dangerous, keyDir, onceKey, turnApprovals: req.turnApprovals }),
    });
    const record = { command: part.text, level: part.level, channel: via, escalationId };

    switch (outcome.kind) {
      case 'approved': {
        const { scope, downgradedFrom } = outcome;
        approvals.push({ ...record, decision: 'approved', scope, ...(downgradedFrom ? { downgradedFrom } : {}) });
        const kept = !remembered
          ? `${scope}; this is asked every time`
          : downgradedFrom
            ? `${scope}; a dangerous command is kept for this session only`
            : scope;
        return { allowed: true, note: `approved (${kept})`, unasked: false };
      }
      case 'declined': {
        if (outcome.cause === 'timed-out') {
          approvals.push({ ...record, decision: 'timed-out' });
          return { allowed: false, note: 'no answer in time, refused', reason: outcome.reason, cause: 'timed-out', escalationId };
        }
        approvals.push({ ...record, decision: 'denied' });
        return { allowed: false, note: `denied: ${outcome.reason}`, reason: outcome.reason, cause: 'declined', escalationId };
      }
      case 'pending': {
        approvals.push({ ...record, decision: 'pending', escalationId: outcome.id });
        return {
          allowed: false,
          note: `pending approval ${outcome.id}`,
          reason: outcome.reason,
          cause: 'pending',
          escalationId: outcome.id,
          pending: {
            id: outcome.id,
            verb: 'approval',
            command: part.text,
            pattern: part.pattern,
            level: part.level,
            reasons: part.reasons,
            ...(outcome.expiresAt !== undefined ? { expiresAt: new Date(outcome.expiresAt).toISOString() } : {}),
          },
        };
      }
      case 'answered': // escalate() settles text for an approval as a failed request; never reached
        return { allowed: false, note: 'refused', reason: 'the channel answered an approval with text; refused', cause: 'error', escalationId };
    }
  }

  /**
   * What a yes is kept as: asked-every-time parts only for this request, a dangerous command for this session at
   * most, `project`/`always` in the store (if the store cannot take it, this run is still approved for the session).
   */
  private keep(
    answered: Scope,
    k: { part: PartVerdict; remembered: boolean; dangerous: boolean; keyDir: string; onceKey: string; turnApprovals: ApprovalCache },
  ): KeptApproval {
    const { part, remembered, keyDir } = k;
    const grant = { level: part.level, reasons: part.reasons };
    let scope = answered;
    let downgradedFrom: Scope | undefined;
    if (!remembered && scope !== 'once') {
      downgradedFrom = scope;
      scope = 'once';
    } else if (k.dangerous && (scope === 'project' || scope === 'always')) {
      downgradedFrom = scope;
      scope = 'session';
    }
    const kept = { scope, ...(downgradedFrom ? { downgradedFrom } : {}) };
    if (!remembered) return kept; // nothing is kept
    if (scope === 'once') {
      k.turnApprovals.add(keyDir, k.onceKey, grant);
      return kept;
    }
    this.deps.sessionApprovals.add(keyDir, part.pattern, grant);
    if (scope === 'session') return kept;
    try {
      const stored = this.deps.store?.add({
        pattern: part.pattern,
        reasons: part.reasons,
        ...(scope === 'project' ? { workingDirectory: keyDir } : {}),
        scope,
        level: part.level,
        persistDays: this.deps.config.approval.persistDays,
        source: this.deps.source,
      });
      return { ...kept, ...(stored ? { approvalID: stored.id, expiresAt: stored.expiresAt } : {}) };
    } catch (err) {
      return { ...kept, persistError: err instanceof Error ? err.message : String(err) };
    }
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
