// The names of the escalation channels: what `escalation.channel` may say and what every audit event names.
export const CHANNEL_NAMES = ['terminal', 'elicitation', 'queue', 'result', 'auto', 'deny'] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];
