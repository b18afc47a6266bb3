// Flag helpers shared by the faces: repeatable --tool, and resolving the escalation channel.
import type { ChannelName } from '../src/core/channels.js';
import { UsageError } from '../src/core/errors.js';

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * The channel for this process: `-y` means auto; then `--escalation`; then config `escalation.channel` when this
 * face supports it; then the face's default. Operator-only: nothing a model or a calling agent sends changes it.
 */
export function resolveChannel(opts: {
  yes?: boolean;
  flag?: string;
  configured?: ChannelName;
  allowed: readonly ChannelName[];
  fallback: ChannelName;
  face: string;
}): ChannelName {
  if (opts.yes) {
    if (opts.flag && opts.flag !== 'auto') throw new UsageError(`--yes means --escalation auto; it cannot be combined with --escalation ${opts.flag}`);
    return 'auto';
  }
  if (opts.flag !== undefined) {
    if (!(opts.allowed as readonly string[]).includes(opts.flag)) {
      throw new UsageError(`--escalation ${opts.flag} is not available in ${opts.face}; choose one of ${opts.allowed.join(', ')}`);
    }
    return opts.flag as ChannelName;
  }
  if (opts.configured && opts.allowed.includes(opts.configured)) return opts.configured;
  return opts.fallback;
}
