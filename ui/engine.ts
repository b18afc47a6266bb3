// What the App needs from the engine, as one small interface: run a turn, run a slash command, say what the
// status line shows. `SessionEngine` is the real one over a Session; App tests give the App a fake. No Ink, no
// React, no component imports here: the engine emits data and the components draw it.
import { recordOperatorEvent } from '../src/audit/operator.js';
import { auditRotation } from '../src/config/audit-rotation.js';
import { createModel } from '../src/model/index.js';
import type { LanguageModel } from '../src/model/types.js';
import { Conversation } from '../src/session/conversation.js';
import { SavedChat, type LoadedChat } from '../src/session/saved-chat.js';
import type { Session } from '../src/session/session.js';
import type { LiveEvent, ToolEvent } from '../src/tools/types.js';
import { isSlash, runSlash, type SlashContext, type SlashResult } from './slash.js';

export interface TurnHandlers {
  readonly signal: AbortSignal;
  readonly onText: (delta: string) => void;
  readonly onEvent: (event: ToolEvent) => void;
  readonly onProgress: (message: string) => void;
  /** A running command's output as it comes, for the live box (never the model's input). */
  readonly onLive?: (event: LiveEvent) => void;
}

/** What the status line shows. */
export interface StatusInfo {
  readonly model: string;
  readonly channel: string;
  /** `bwrap`, `sandbox-exec`, `off`, or why none works. */
  readonly sandbox: string;
  readonly sandboxOk: boolean;
}

export interface TurnSummary {
  readonly text: string;
}

export interface ChatEngine {
  info(): StatusInfo;
  turn(prompt: string, handlers: TurnHandlers): Promise<TurnSummary>;
  slash(line: string): SlashResult;
  /** Keeps transcript entries in the saved conversation; returns a warning when saving has just failed. */
  record?(entries: readonly unknown[]): string | undefined;
  /** approval.persistDays, for the dialog's hints. */
  readonly persistDays: number;
  /** Present while the engine is still starting (ui/deferred-engine.ts): settles when it can take turns. */
  readonly ready?: Promise<void>;
}

/** Where the conversation is saved (`$WISP_HOME/sessions/`), and the one it goes on from, if any. */
export interface SaveOptions {
  readonly home: string;
  readonly resume?: LoadedChat;
}

export interface SandboxState {
  readonly label: string;
  readonly ok: boolean;
}

export class SessionEngine implements ChatEngine {
  private model: LanguageModel;
  private conversation: Conversation;
  private saver: SavedChat | undefined;
  /** How many of the conversation's messages are in the saved file (the system prompt never is). */
  private savedCount = 1;

  constructor(
    private readonly session: Session,
    private readonly sandbox: SandboxState,
    /** Told the ids this chat revoked, so the watch on the audit log does not report them as news. */
    private readonly onRevoked: (ids: readonly string[]) => void = () => {},
    private readonly save?: SaveOptions,
  ) {
    this.model = session.model;
    this.conversation = this.fresh();
    if (save?.resume) {
      // The model's context comes back; approvals do not (they were never saved).
      this.conversation.messages.push(...save.resume.messages);
      this.savedCount = this.conversation.messages.length;
      this.saver = SavedChat.resume(save.resume);
    } else this.saver = this.newSaver();
  }

  /** The saved conversation's id (undefined when not saving). */
  get savedId(): string | undefined {
    return this.saver?.id;
  }

  record(entries: readonly unknown[]): string | undefined {
    // Slash commands and what they print are this chat's business, not the conversation's.
    const slash = (e: unknown) => typeof e === 'object' && e !== null && 'kind' in e && e.kind === 'prompt' && 'text' in e && typeof e.text === 'string' && isSlash(e.text);
    return this.saver?.shown(entries.filter((e) => !slash(e)));
  }

  private newSaver(): SavedChat | undefined {
    return this.save ? SavedChat.create(this.save.home, { directory: this.session.launchDir, model: this.model.id }) : undefined;
  }

  /** Writes the messages the last turn added. */
  private keep(): string | undefined {
    const fresh = this.conversation.messages.slice(this.savedCount);
    this.savedCount = this.conversation.messages.length;
    return this.saver?.messages(fresh);
  }

  get persistDays(): number {
    return this.session.config.approval.persistDays;
  }

  info(): StatusInfo {
    return { model: this.model.id, channel: this.session.channel.name, sandbox: this.sandbox.label, sandboxOk: this.sandbox.ok };
  }

  async turn(prompt: string, h: TurnHandlers): Promise<TurnSummary> {
    try {
      const result = await this.conversation.turn(prompt, {
        signal: h.signal,
        onText: h.onText,
        onEvent: h.onEvent,
        onProgress: h.onProgress,
        ...(h.onLive ? { onLive: h.onLive } : {}),
      });
      return { text: result.text };
    } finally {
      // Saved also when the turn failed or was interrupted: the context holds what was said so far.
      const problem = this.keep();
      if (problem) h.onProgress(problem);
    }
  }

  slash(line: string): SlashResult {
    return runSlash(line, this.slashContext());
  }

  private fresh(): Conversation {
    const s = this.session;
    return new Conversation({
      model: this.model,
      tools: s.tools,
      config: s.config,
      audit: s.audit,
      gate: s.gate,
      channel: s.channel,
      pendingInquiries: s.pendingInquiries,
      paths: s.paths,
      launchDir: s.launchDir,
      session: s.id,
      ...(s.opts.client ? { client: s.opts.client } : {}),
    });
  }

  private slashContext(): SlashContext {
    const s = this.session;
    return {
      config: s.config,
      configFile: s.paths.config,
      audit: s.audit,
      auditCtx: s.ctx,
      store: s.store,
      sessionApprovals: s.sessionApprovals,
      modelId: () => this.model.id,
      setModel: (spec) => {
        const next = createModel(spec, s.config);
        const history = this.conversation.messages.slice(1);
        this.model = next;
        this.conversation = this.fresh();
        this.conversation.messages.push(...history);
        s.audit.write('config.change', { action: 'model', key: 'model', after: next.id, via: 'chat', scope: 'session' }, s.ctx);
        return next.id;
      },
      newConversation: () => {
        this.conversation = this.fresh();
        this.savedCount = 1;
        this.saver = this.newSaver();
      },
      recordRevocation: (details) => {
        this.onRevoked(details.ids);
        recordOperatorEvent(s.paths, auditRotation({ home: s.paths.home, cwd: process.cwd() }), { kind: 'approval.revoked', revocation: details });
      },
    };
  }
}
