// Entries for the transcript from outside the App (the queue watcher, the session's warnings). Entries sent
// before the App subscribes are kept and delivered on subscription, so nothing said at start-up is lost.
import type { TranscriptFeed } from './App.js';
import type { EntryBody } from './transcript-entries.js';

export class Feed implements TranscriptFeed {
  private readonly listeners = new Set<(entry: EntryBody) => void>();
  private backlog: EntryBody[] = [];

  emit(entry: EntryBody): void {
    if (this.listeners.size === 0) {
      this.backlog.push(entry);
      return;
    }
    for (const l of [...this.listeners]) l(entry);
  }

  subscribe(listener: (entry: EntryBody) => void): () => void {
    this.listeners.add(listener);
    const pending = this.backlog;
    this.backlog = [];
    pending.forEach(listener);
    return () => this.listeners.delete(listener);
  }
}
