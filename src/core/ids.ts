import { randomBytes } from 'node:crypto';

/** A short random id: 8 hex characters by default (escalations, approvals), 16 for audit events. */
export function shortId(bytes = 4): string {
  return randomBytes(bytes).toString('hex');
}
