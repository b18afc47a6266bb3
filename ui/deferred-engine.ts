// The engine of a chat whose input line is drawn before its session is open (ADR 0056): the App mounts at once and
// takes keys, while the session (the gate's parser, the model, the audit log, the sandbox check) starts behind it.
// Until then the status line says so, prompts wait in the App's queue (`ready`), and nothing reaches a session that
// does not exist yet. No Ink, no React here.
import type { SlashResult } from './slash.js';
import type { ChatEngine, StatusInfo, TurnHandlers, TurnSummary } from './engine.js';

export class DeferredEngine implements ChatEngine {
  private real: ChatEngine | undefined;
  /** Transcript entries recorded before the session was open: handed to it when it is. */
  private held: unknown[] = [];
  /** Settles when the real engine is there; rejects with the reason it never will be. */
  readonly ready: Promise<void>;

  constructor(
    start: Promise<ChatEngine>,
    /** What the status line shows meanwhile. */
    private readonly early: StatusInfo,
    /** approval.persistDays from the configuration (known before the session). */
    private readonly persist: number,
    /** Told a warning the real engine gave for the entries held until it was there. */
    private readonly warn: (text: string) => void = () => {},
  ) {
    this.ready = start.then((engine) => {
      this.real = engine;
      const held = this.held;
      this.held = [];
      const problem = held.length > 0 ? engine.record?.(held) : undefined;
      if (problem) this.warn(problem);
    });
    // Whoever started the session reports its failure; an App that never asked must not make it an unhandled one.
    this.ready.catch(() => {});
  }

  get persistDays(): number {
    return this.real?.persistDays ?? this.persist;
  }

  info(): StatusInfo {
    return this.real?.info() ?? this.early;
  }

  async turn(prompt: string, handlers: TurnHandlers): Promise<TurnSummary> {
    // The App queues prompts until `ready`; waiting here as well keeps a caller that does not from racing the start.
    await this.ready;
    return this.real!.turn(prompt, handlers);
  }

  slash(line: string): SlashResult {
    if (this.real) return this.real.slash(line);
    return { kind: 'error', text: 'wisp is still starting: try it again in a moment' };
  }

  record(entries: readonly unknown[]): string | undefined {
    if (this.real) return this.real.record?.(entries);
    this.held.push(...entries);
    return undefined;
  }
}
