// Flag helpers shared by the faces: repeatable --tool, and resolving the escalation channel.
import type { ChannelName } from '../src/core/channels.js';
import { UsageError } from '../src/core/errors.js';

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The channels each face can use, and its default; the first is the default. */
export const FACE_CHANNELS = {
  'wisp chat': ['terminal', 'queue', 'auto', 'deny'],
  'wisp respond': ['deny', 'auto', 'queue'],
  'wisp mcp': ['elicitation', 'result', 'queue', 'auto', 'deny'],
} as const satisfies Record<string, readonly [ChannelName, ...ChannelName[]]>;
export type Face = keyof typeof FACE_CHANNELS;

/**
 * The flags alone (`--yes`, `--escalation`), checked before anything else about the process — a terminal, the
 * config — so a mistyped channel is the error a person sees first (ADR 0102). Returns the flag's channel, if any.
 */
export function channelFromFlags(opts: { yes?: boolean; flag?: string; face: Face }): ChannelName | undefined {
  const allowed: readonly ChannelName[] = FACE_CHANNELS[opts.face];
  if (opts.yes) {
    if (opts.flag && opts.flag !== 'auto') throw new UsageError(`--yes means --escalation auto; it cannot be combined with --escalation ${opts.flag}`);
    return 'auto';
  }
  if (opts.flag === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(opts.flag)) {
    throw new UsageError(`--escalation ${opts.flag} is not available in ${opts.face}; choose one of ${allowed.join(', ')}`);
  }
  return opts.flag as ChannelName;
}

export interface ResolvedChannel {
  readonly channel: ChannelName;
  /**
   * Set when config `escalation.channel` names a channel this face cannot use: the one line that says which channel
   * is used instead and why (ADR 0102). The face shows it; the session audits the configured name beside the used one.
   */
  readonly notice?: string;
  /** The configured channel that was not used. */
  readonly notUsed?: ChannelName;
}

/**
 * The channel for this process: `-y` means auto; then `--escalation`; then config `escalation.channel` when this
 * face supports it; then the face's default. Operator-only: nothing a model or a calling agent sends changes it.
 */
export function resolveChannel(opts: { yes?: boolean; flag?: string; configured?: ChannelName; face: Face }): ResolvedChannel {
  const fromFlags = channelFromFlags(opts);
  if (fromFlags !== undefined) return { channel: fromFlags };
  const allowed: readonly ChannelName[] = FACE_CHANNELS[opts.face];
  const fallback = FACE_CHANNELS[opts.face][0];
  if (opts.configured === undefined || allowed.includes(opts.configured)) return { channel: opts.configured ?? fallback };
  return {
    channel: fallback,
    notUsed: opts.configured,
    notice:
      `escalation.channel ${opts.configured} (config) is not available in ${opts.face}; using ${fallback}, its default ` +
      `(${opts.face} can use ${allowed.join(', ')}; --escalation chooses for one run)`,
  };
}
