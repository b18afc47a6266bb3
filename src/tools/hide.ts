// The text a model reads of what ran or was read unasked, with recognisable credentials hidden (ADR 0096).
import { hideCredentials } from '../core/credentials-in-text.js';

/** `text` with its credentials hidden, and a line saying how many were, when any were. */
export function withCredentialsHidden(text: string): string {
  const r = hideCredentials(text);
  if (r.hidden === 0) return text;
  const what = r.hidden === 1 ? 'a credential' : `${r.hidden} credentials`;
  return `${r.text}\n[wisp hid ${what} in this text: it was read without the person's answer, and a secret goes to the model only when they give it]`;
}
