// A session: one process's config, audit log, gate, channel and model, and the conversations it runs.
// Faces (respond, chat, mcp) open one, hand it prompts, and end it; nothing here draws or parses flags.
import { mkdirSync } from 'node:fs';
import { auditFailure } from '../audit/failure.js';
import type { AuditContext, AuditSink } from '../audit/kinds.js';
import { openAudit } from '../audit/writer.js';
import { loadConfig } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { abandonInFlight } from '../escalation/escalate.js';
import { PendingEscalations } from '../escalation/pending.js';
import type { ResultChannel } from '../escalation/result.js';
import type { ChannelName } from '../core/channels.js';
import type { EscalationChannel } from '../escalation/types.js';
import { initParser } from '../gate/parse.js';
import { detectSandbox } from '../gate/sandbox.js';
import { Gate } from '../gate/gate.js';
import { ApprovalCache } from '../gate/session-approvals.js';
import { ApprovalStore } from '../gate/store.js';
import { createModel, ModelError } from '../model/index.js';
import { chooseModel, noModelChoices } from '../model/default-order.js';
import { ModelClassifier, classifierMode } from '../gate/model-classifier.js';
import type { LanguageModel } from '../model/types.js';
import { wispHome, wispPaths, type WispPaths } from '../core/paths.js';
import { selectTools } from '../tools/registry.js';
import type { WispTool } from '../tools/types.js';
import { shortId } from '../core/ids.js';
import { VERSION } from '../core/version.js';
import { Conversation } from './conversation.js';
import { buildChannel, type FaceChannel } from './build-channel.js';
import type { QueueHandle } from './queue-wiring.js';

export type EntryPoint = 'respond' | 'chat' | 'mcp';

export interface SessionOptions {
  readonly entryPoint: EntryPoint;
  readonly cwd: string;
  readonly home?: string;
  readonly modelSpec?: string;
  /** With no model configured, use the default order (Ollama, then a GGUF in $WISP_HOME/models) or fail saying what to do. */
  readonly defaultOrder?: boolean;
  /** The channel's name, already resolved by the face (flag > config > the face's default). */
  readonly channel: ChannelName;
  /** Config `escalation.channel` when the face could not use it and took its default instead (ADR 0102): audited. */
  readonly channelNotUsed?: ChannelName;
  /** The face's own channel (the chat dialog, MCP elicitation); required for `terminal` and `elicitation`. */
  readonly faceChannel?: FaceChannel;
  readonly toolNames?: readonly string[];
  readonly noTools?: boolean;
  readonly client?: string;
  /** The server session a thread belongs to (MCP threads are sessions of their own). */
  readonly parent?: string;
  /** Reuse a loaded config (tests, MCP threads). */
  readonly config?: Config;
  readonly warn?: (message: string) => void;
  /** Reuse an audit sink (MCP threads share the server's file). */
  readonly audit?: AuditSink;
  /** Wraps the resolved channel (MCP tasks watch their escalations through it); the name must stay the same. */
  readonly wrapChannel?: (channel: EscalationChannel) => EscalationChannel;
}

/**
 * What a process's exit status says about why it ended: main turns SIGHUP and SIGTERM into 129 and 143, and
 * `wisp respond` exits 130 on Ctrl+C. A face ends its session with this from an 'exit' hook, so a closed terminal or
 * a stop signal still settles what was waiting and writes `session.end` (ADR 0102).
 */
export function exitReason(status: number | undefined): string {
  return status === 129 ? 'hangup' : status === 143 ? 'terminated' : status === 130 ? 'interrupted' : 'exit';
}

/** The reason an escalation left waiting by a session's end is settled with: what ended, in a person's words. */
export function abandonedBecause(reason: string, entryPoint: EntryPoint): string {
  const face = `wisp ${entryPoint}`;
  const what: Record<string, string> = {
    done: entryPoint === 'chat' ? 'the chat was closed' : `${face} ended`,
    interrupted: `${face} was interrupted (Ctrl+C or SIGINT)`,
    hangup: `the terminal of ${face} was closed (SIGHUP)`,
    terminated: `${face} was stopped (SIGTERM)`,
    exit: `${face} exited`,
    error: `${face} failed`,
  };
  return `${what[reason] ?? `${face} ended (${reason})`} before an answer came`;
}

export class Session {
  readonly id = shortId(8);
  readonly sessionApprovals = new ApprovalCache();
  readonly pendingInquiries: PendingEscalations;
  readonly gate: Gate;
  readonly store: ApprovalStore;
  private ended = false;

  constructor(
    readonly config: Config,
    readonly paths: WispPaths,
    readonly audit: AuditSink,
    readonly model: LanguageModel,
    readonly tools: readonly WispTool[],
    readonly channel: EscalationChannel,
    readonly opts: SessionOptions,
    readonly queue?: QueueHandle,
    readonly resultChannel?: ResultChannel,
    pendingInquiries?: PendingEscalations,
    classifier?: ModelClassifier,
  ) {
    this.pendingInquiries = pendingInquiries ?? new PendingEscalations(config.escalation.pendingSeconds * 1000);
    this.store = new ApprovalStore(paths.approvals);
    this.gate = new Gate({
      config,
      audit,
      channel,
      store: this.store,
      sessionApprovals: this.sessionApprovals,
      source: opts.entryPoint,
      project: opts.cwd,
      ...(classifier ? { modelClassifier: classifier } : {}),
    });
  }

  get launchDir(): string {
    return this.opts.cwd;
  }

  get ctx(): AuditContext {
    return { session: this.id };
  }

  conversation(opts: { thread?: string; instructions?: string; tools?: readonly WispTool[]; session?: string } = {}): Conversation {
    return new Conversation({
      model: this.model,
      tools: opts.tools ?? this.tools,
      config: this.config,
      audit: this.audit,
      gate: this.gate,
      channel: this.channel,
      pendingInquiries: this.pendingInquiries,
      paths: this.paths,
      launchDir: this.launchDir,
      session: opts.session ?? this.id,
      ...(opts.thread !== undefined ? { thread: opts.thread } : {}),
      ...(this.opts.client ? { client: this.opts.client } : {}),
      ...(opts.instructions ? { instructions: opts.instructions } : {}),
    });
  }

  /** Ends the session because of `err`: its `error` event first (unless already written), then `session.end error`. */
  fail(err: unknown): void {
    if (!this.ended) auditFailure(this.audit, err, { context: this.opts.entryPoint, model: this.model.id }, this.ctx);
    this.end('error');
  }

  end(reason = 'done'): void {
    if (this.ended) return;
    this.ended = true;
    this.resultChannel?.dropAll();
    try {
      // A request still waiting is settled first, in words that say why nobody can answer it now (ADR 0102).
      const dropped = abandonInFlight(this.ctx.session, abandonedBecause(reason, this.opts.entryPoint));
      this.audit.write('session.end', { reason, ...(dropped.length ? { dropped } : {}) }, this.ctx);
    } catch {
      /* ending cannot be refused; the failure was already reported when the write path broke */
    }
  }
}

export async function openSession(opts: SessionOptions): Promise<Session> {
  const warn = opts.warn ?? ((m: string) => process.stderr.write(`wisp: ${m}\n`));
  const home = opts.home ?? wispHome();
  const paths = wispPaths(home);
  let config = opts.config;
  if (!config) {
    const loaded = loadConfig({ home, cwd: opts.cwd });
    loaded.warnings.forEach(warn);
    config = loaded.config;
  }
  await initParser();
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const audit = opts.audit ?? openAudit({ file: paths.audit, maxFileBytes: config.audit.maxFileBytes, keepFiles: config.audit.keepFiles, version: VERSION });
  const tools = selectTools({
    ...(opts.toolNames ? { names: opts.toolNames } : {}),
    ...(opts.noTools ? { none: true } : {}),
    disabled: config.tools.disabled,
  });
  // After the tools: a bad --tool is a usage error before any model is looked for.
  let spec = opts.modelSpec ?? config.model;
  if (opts.defaultOrder) {
    const chosen = await chooseModel(opts.modelSpec, config, home);
    if (chosen.spec === undefined) throw new ModelError('unreachable', noModelChoices(config, home), '');
    spec = chosen.spec;
  }
  const model = createModel(spec, config);
  const pendingInquiries = new PendingEscalations(config.escalation.pendingSeconds * 1000);

  const { channel, queue, resultChannel } = buildChannel(
    opts.channel,
    { paths, audit, config, ...(opts.client ? { client: opts.client } : {}) },
    pendingInquiries,
    opts.faceChannel,
    opts.wrapChannel,
  );

  const classifier =
    classifierMode(config.approval) === 'model'
      ? new ModelClassifier({
          model: config.approval.classifierModel ? createModel(config.approval.classifierModel, config) : model,
          timeoutMs: config.approval.classifierTimeoutSeconds * 1000,
        })
      : undefined;
  const session = new Session(config, paths, audit, model, tools, channel, opts, queue, resultChannel, pendingInquiries, classifier);
  const sandbox = config.sandbox.enabled ? await detectSandbox() : { kind: 'none' as const, works: false, detail: 'disabled in config' };
  if (!config.sandbox.enabled) warn('the sandbox is off (sandbox.enabled: false): commands run with your full permissions');
  else if (!sandbox.works) warn(`no working sandbox (${sandbox.detail}); commands will be refused until one is installed`);
  audit.write(
    'session.start',
    {
      entryPoint: opts.entryPoint,
      model: model.id,
      tools: tools.map((t) => t.name),
      channel: channel.name,
      ...(opts.channelNotUsed ? { channelConfigured: opts.channelNotUsed } : {}),
      sandbox: { enabled: config.sandbox.enabled, kind: sandbox.kind, works: sandbox.works },
      network: config.sandbox.allowNetwork,
      threshold: config.approval.threshold,
      cwd: opts.cwd,
      ...(opts.parent ? { parent: opts.parent } : {}),
      ...(opts.client ? { client: opts.client } : {}),
    },
    session.ctx,
  );
  return session;
}
