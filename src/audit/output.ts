// What the audit log keeps of command and tool output. By default only its size and SHA-256: a secret read once
// with consent must not stay readable in the log for every later session. `audit.recordOutput: true` keeps the text.
import { createHash } from 'node:crypto';

/**
 * The details for one output field: `{name: text}` when recording, else `{nameBytes, nameSha256}`. The hash lets a
 * person holding the text check that it is what was produced, without the log holding it.
 */
export function outputFields(name: string, text: string, record: boolean): Record<string, unknown> {
  if (record) return { [name]: text };
  return {
    [`${name}Bytes`]: Buffer.byteLength(text),
    [`${name}Sha256`]: createHash('sha256').update(text).digest('hex'),
  };
}
