// How long an approval holds: this one run, this session, this project, or always (stored in approvals.json).
export const SCOPES = ['once', 'session', 'project', 'always'] as const;
export type Scope = (typeof SCOPES)[number];
