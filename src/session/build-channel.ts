// The one place a session's escalation channel is built, for every face: `auto`, `deny`, `queue` and `result` from
// the session's parts; `terminal` (the chat's dialog) and `elicitation` (MCP) by the face's own factory, called
// here with the same parts and the queue leg it may race; then the face's wrapper (MCP tasks watch their waits).
import type { AuditSink } from '../audit/kinds.js';
import type { Config } from '../config/schema.js';
import { AutoChannel, DenyChannel } from '../escalation/channels.js';
import type { PendingEscalations } from '../escalation/pending.js';
import { ResultChannel } from '../escalation/result.js';
import type { ChannelName } from '../core/channels.js';
import { UsageError } from '../core/errors.js';
import type { WispPaths } from '../core/paths.js';
import type { EscalationChannel } from '../escalation/types.js';
import { makeDeferredQueue, makeQueueChannel, type QueueHandle } from './queue-wiring.js';

/** What a channel is built from: the session's files, audit log, config and client name. */
export interface ChannelParts {
  readonly paths: WispPaths;
  readonly audit: AuditSink;
  readonly config: Config;
  readonly client?: string;
}

/**
 * A face's own channel (the chat's dialog, MCP elicitation). `queue()` builds the waiting queue channel, for a face
 * that races it beside its dialog.
 */
export type FaceChannel = (parts: ChannelParts, queue: () => EscalationChannel) => EscalationChannel;

export interface BuiltChannel {
  readonly channel: EscalationChannel;
  /** The queue, when it is the channel (`--escalation queue`). */
  readonly queue?: QueueHandle;
  /** The result channel, when it is the channel: threads drop its deferred approvals. */
  readonly resultChannel?: ResultChannel;
}

export function buildChannel(
  name: ChannelName,
  parts: ChannelParts,
  pendingInquiries: PendingEscalations,
  face?: FaceChannel,
  wrap?: (channel: EscalationChannel) => EscalationChannel,
): BuiltChannel {
  const built = build(name, parts, pendingInquiries, face);
  return wrap ? { ...built, channel: wrap(built.channel) } : built;
}

function build(name: ChannelName, parts: ChannelParts, pendingInquiries: PendingEscalations, face?: FaceChannel): BuiltChannel {
  switch (name) {
    case 'auto':
      return { channel: new AutoChannel() };
    case 'deny':
      return { channel: new DenyChannel() };
    case 'queue': {
      const queue = makeQueueChannel(parts);
      return { channel: queue.channel, queue };
    }
    case 'result': {
      const resultChannel = new ResultChannel(pendingInquiries, makeDeferredQueue(parts));
      return { channel: resultChannel, resultChannel };
    }
    case 'terminal':
    case 'elicitation':
      if (!face) throw new UsageError(`the ${name} channel is only available in its own face`);
      return { channel: face(parts, () => makeQueueChannel(parts).channel) };
  }
}
