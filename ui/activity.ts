// What a turn is doing right now, for the spinner and the live output box: thinking (the model), running a command
// (with the last lines of its output as they come), or waiting for an answer filed in the queue. Plain data fed by
// the turn's callbacks; the component (LiveActivity.tsx) reads `view()` on its own tick, so a command that prints
// fast costs a string append per chunk here and one redraw per tick, not one per chunk.
import type { LiveEvent, ToolEvent } from '../src/tools/types.js';

/** Lines the live box shows. */
export const LIVE_LINES = 8;
/** The end of a line kept while it has no line break yet (a progress bar, `yes | tr -d '\n'`). */
const LINE_CHARS = 2000;

type Stream = 'stdout' | 'stderr';

/** The last lines of a command's output; memory stays bounded whatever the command prints. */
export class LiveTail {
  private done: string[] = [];
  private readonly partial: Record<Stream, string> = { stdout: '', stderr: '' };
  /** Line breaks seen so far. */
  private count = 0;

  constructor(private readonly max = LIVE_LINES) {}

  push(stream: Stream, text: string): void {
    const pieces = (this.partial[stream] + text).split('\n');
    const rest = pieces.pop()!;
    if (pieces.length > 0) {
      this.count += pieces.length;
      // Only the last `max` lines can ever be shown: the others are not kept.
      const keep = pieces.slice(-this.max).map((l) => l.slice(-LINE_CHARS));
      this.done = [...this.done, ...keep].slice(-this.max);
    }
    this.partial[stream] = rest.slice(-LINE_CHARS);
  }

  /** The last lines, unfinished ones (one per stream) last. */
  lines(): string[] {
    const open = (['stdout', 'stderr'] as const).map((s) => this.partial[s]).filter((l) => l !== '');
    return [...this.done, ...open].slice(-this.max);
  }

  /** Lines written in all, an unfinished one counted. */
  get total(): number {
    return this.count + (['stdout', 'stderr'] as const).filter((s) => this.partial[s] !== '').length;
  }
}

export type ActivityView =
  | { readonly kind: 'thinking'; readonly since: number }
  | { readonly kind: 'waiting'; readonly text: string; readonly since: number }
  | {
      readonly kind: 'running';
      readonly command: string;
      readonly since: number;
      readonly lines: readonly string[];
      /** Lines written in all (more than `lines` when the start scrolled away). */
      readonly total: number;
    };

type State =
  | { kind: 'thinking'; since: number }
  | { kind: 'waiting'; text: string; since: number }
  | { kind: 'running'; callId: string; command: string; since: number; tail: LiveTail };

export class TurnActivity {
  private state: State;

  constructor(private readonly now: () => number = Date.now) {
    this.state = { kind: 'thinking', since: now() };
  }

  /** A turn begins, or the model has the word again. */
  thinking(): void {
    if (this.state.kind !== 'thinking') this.state = { kind: 'thinking', since: this.now() };
  }

  /** A new turn: the clock starts again. */
  start(): void {
    this.state = { kind: 'thinking', since: this.now() };
  }

  /** Progress from the escalation channel (the queue: "waiting for an answer in the queue: …"). */
  progress(message: string): void {
    if (this.state.kind === 'running') return; // a command's own box stays
    this.state = { kind: 'waiting', text: message, since: this.now() };
  }

  /** A tool event ends whatever wait was going on: the gate has decided, the question was answered. */
  event(_event: ToolEvent): void {
    if (this.state.kind === 'waiting') this.thinking();
  }

  live(event: LiveEvent): void {
    switch (event.type) {
      case 'command-start':
        this.state = { kind: 'running', callId: event.callId, command: event.command, since: this.now(), tail: new LiveTail() };
        return;
      case 'command-output':
        if (this.state.kind === 'running' && this.state.callId === event.callId) this.state.tail.push(event.stream, event.text);
        return;
      case 'command-end':
        if (this.state.kind === 'running' && this.state.callId === event.callId) this.thinking();
        return;
    }
  }

  view(): ActivityView {
    const s = this.state;
    if (s.kind !== 'running') return s;
    return { kind: 'running', command: s.command, since: s.since, lines: s.tail.lines(), total: s.tail.total };
  }
}
