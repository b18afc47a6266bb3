// JSON for terminals and logs: JSON.stringify escapes only U+0000–U+001F, so C1 controls, bidi overrides, zero-width
// and tag characters would reach a terminal raw from `--json` output or a `cat` of the audit log. These are written
// as \uXXXX escapes instead; JSON.parse gives back exactly the same strings.
const HIDDEN = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

function escapeUnit(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += '\\u' + s.charCodeAt(i).toString(16).padStart(4, '0');
  return out;
}

export function safeJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(HIDDEN, escapeUnit);
}
