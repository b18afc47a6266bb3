// Builds the queue channel (waiting mode) and its deferred form for the result channel, from a session's parts.
import type { AuditSink } from '../audit/kinds.js';
import type { Config } from '../config/schema.js';
import { Notifier } from '../escalation/queue/notify.js';
import { QueueChannel } from '../escalation/queue/asker.js';
import type { DeferredQueue } from '../escalation/result.js';
import type { EscalationChannel } from '../escalation/types.js';
import type { WispPaths } from '../core/paths.js';

export interface QueueHandle {
  readonly channel: EscalationChannel;
  readonly queue: QueueChannel;
}

interface Parts {
  readonly paths: WispPaths;
  readonly audit: AuditSink;
  readonly config: Config;
  readonly client?: string;
}

function build(parts: Parts): QueueChannel {
  return new QueueChannel({
    paths: parts.paths,
    audit: parts.audit,
    pendingSeconds: parts.config.escalation.pendingSeconds,
    notifier: new Notifier({
      audit: parts.audit,
      enabled: parts.config.notifications.enabled,
      perMinute: parts.config.notifications.perMinute,
    }),
    ...(parts.client ? { client: parts.client } : {}),
  });
}

export function makeQueueChannel(parts: Parts): QueueHandle {
  const queue = build(parts);
  return { channel: queue, queue };
}

export function makeDeferredQueue(parts: Parts): DeferredQueue {
  const queue = build(parts);
  return {
    file: (e, ctx) => queue.file(e, ctx),
    poll: (id) => queue.poll(id),
    withdraw: (id) => queue.withdraw(id),
  };
}
