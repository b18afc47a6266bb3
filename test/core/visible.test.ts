import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_CHARS, hasHidden, hasLongRun, LONG_RUN, visible } from '../../src/core/visible.js';

// Anything a terminal would act on or hide. None of these may survive visible() raw.
const DANGEROUS_RAW =
  /[\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u061c\u115f\u1160\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u2800\u3164\ufeff\uffa0]|[\u{e0000}-\u{e007f}]/u;

describe('visible: each character class is shown, never stripped', () => {
  it.each([
    ['ESC', 'a\x1bb', 'a\\x1bb'],
    ['NUL', 'a\x00b', 'a\\x00b'],
    ['BEL', 'a\x07b', 'a\\x07b'],
    ['backspace', 'rm\bx', 'rm\\bx'],
    ['tab', 'a\tb', 'a\\tb'],
    ['CR', 'ls\rrm', 'ls\\rrm'],
    ['form feed', 'a\x0cb', 'a\\x0cb'],
    ['DEL', 'a\x7fb', 'a\\x7fb'],
    ['C1 CSI', 'a\u009b2Kb', 'a\\x9b2Kb'],
    ['C1 NEL', 'a\u0085b', 'a\\x85b'],
    ['RLO', 'a\u202eb', 'a<U+202E>b'],
    ['LRE', 'a\u202ab', 'a<U+202A>b'],
    ['LRI', 'a\u2066b', 'a<U+2066>b'],
    ['PDI', 'a\u2069b', 'a<U+2069>b'],
    ['ALM', 'a\u061cb', 'a<U+061C>b'],
    ['LRM', 'a\u200eb', 'a<U+200E>b'],
    ['RLM', 'a\u200fb', 'a<U+200F>b'],
    ['ZWSP', 'a\u200bb', 'a<U+200B>b'],
    ['ZWNJ', 'a\u200cb', 'a<U+200C>b'],
    ['ZWJ', 'a\u200db', 'a<U+200D>b'],
    ['word joiner', 'a\u2060b', 'a<U+2060>b'],
    ['BOM', '\ufeffls', '<U+FEFF>ls'],
    ['soft hyphen', 'r\u00adm', 'r<U+00AD>m'],
    ['no-break space', 'rm\u00a0-rf', 'rm<U+00A0>-rf'],
    ['tag A', 'a\u{e0041}b', 'a<U+E0041>b'],
    ['cancel tag', 'a\u{e007f}', 'a<U+E007F>'],
    ['lone high surrogate', 'a\ud800b', 'a<U+D800>b'],
    ['lone low surrogate', 'a\udc00b', 'a<U+DC00>b'],
    // Blank-looking letters and fillers: a shell reads them as part of a word, a person reads a space or nothing.
    ['braille pattern blank U+2800', 'rm\u2800-rf', 'rm<U+2800>-rf'],
    ['Hangul choseong filler U+115F', 'a\u115fb', 'a<U+115F>b'],
    ['Hangul jungseong filler U+1160', 'a\u1160b', 'a<U+1160>b'],
    ['Hangul filler U+3164', 'ls\u3164x', 'ls<U+3164>x'],
    ['halfwidth Hangul filler U+FFA0', 'ls\uffa0x', 'ls<U+FFA0>x'],
    ['Khitan small script filler U+16FE4', 'a\u{16fe4}b', 'a<U+16FE4>b'],
    ['musical null notehead U+1D159', 'a\u{1d159}b', 'a<U+1D159>b'],
    ['Ogham space mark U+1680', 'a\u1680b', 'a<U+1680>b'],
    ['Mongolian vowel separator U+180E', 'a\u180eb', 'a<U+180E>b'],
    ['Arabic number sign U+0600 (format, by property)', 'a\u0600b', 'a<U+0600>b'],
    ['Kaithi number sign U+110BD (format, by property)', 'a\u{110bd}b', 'a<U+110BD>b'],
    ['Egyptian hieroglyph joiner U+13430 (format, by property)', 'a\u{13430}b', 'a<U+13430>b'],
    ['unassigned default-ignorable U+2065', 'a\u2065b', 'a<U+2065>b'],
  ])('%s', (_name, input, expected) => {
    expect(visible(input)).toBe(expected);
    expect(hasHidden(input)).toBe(true);
  });

  it('a line feed is shown as \\n on one line, but is not "hidden" (it is visible in multi-line mode)', () => {
    expect(visible('a\nb')).toBe('a\\nb');
    expect(hasHidden('a\nb')).toBe(false);
  });

  it('shows whole escape sequences: CSI and OSC stay readable, ESC and BEL escaped', () => {
    expect(visible('\x1b[2K')).toBe('\\x1b[2K');
    expect(visible('\x1b]0;pwned\x07')).toBe('\\x1b]0;pwned\\x07');
    expect(visible('\x1b]52;c;cm0gLXJmIH4=\x1b\\')).toBe('\\x1b]52;c;cm0gLXJmIH4=\\x1b\\\\'); // OSC 52 + ST
  });

  it('leaves ordinary text alone, including non-Latin scripts and emoji', () => {
    for (const s of ['ls -la', 'git commit -m "wip"', 'grep -rn TODO .', 'echo héllo wörld', 'cat 日本語.txt', 'echo 🎉', 'printf "a\\n"']) {
      expect(visible(s)).toBe(s);
      expect(hasHidden(s)).toBe(false);
    }
  });

  it('doubles backslashes only when something else is escaped, so escapes stay unambiguous', () => {
    expect(visible('printf "a\\n"')).toBe('printf "a\\n"'); // nothing hidden: natural
    // A literal "\x1b" typed as four characters next to a real ESC: the two must look different.
    const shown = visible('echo \\x1b \x1b');
    expect(shown).toBe('echo \\\\x1b \\x1b');
    expect(visible('<U+202E> \u202e')).toBe('\\<U+202E> <U+202E>');
  });

  it('multi-line mode keeps line feeds but still shows CR and everything else', () => {
    expect(visible('one\ntwo', { multiline: true })).toBe('one\ntwo');
    expect(visible('one\r\ntwo\x1b[2K', { multiline: true })).toBe('one\\r\ntwo\\x1b[2K');
    expect(hasHidden('one\ntwo')).toBe(false);
  });
});

describe('visible: truncation', () => {
  it('cuts long text with a count of what was left out', () => {
    const s = 'x'.repeat(1234 + 100);
    expect(visible(s, { maxChars: 100 })).toBe('x'.repeat(100) + '… [+1234 chars]');
  });

  it('counts characters (code points), not UTF-16 units, and never splits an escape', () => {
    const s = '\x1b'.repeat(10) + '😀'.repeat(5);
    const shown = visible(s, { maxChars: 10 });
    expect(shown).toBe('\\x1b\\x1b… [+13 chars]');
    expect(visible('😀'.repeat(5), { maxChars: 4 })).toBe('😀😀… [+3 chars]');
  });

  it('bounds output by default', () => {
    const shown = visible('a'.repeat(DEFAULT_MAX_CHARS * 3));
    expect(shown).toBe('a'.repeat(DEFAULT_MAX_CHARS) + `… [+${DEFAULT_MAX_CHARS * 2} chars]`);
  });
});

describe('visible: hostile strings', () => {
  it('a CR + erase-line spoof shows every byte of the real command', () => {
    const shown = visible('ls\r\x1b[2K rm -rf ~');
    expect(shown).toBe('ls\\r\\x1b[2K rm -rf ~');
    expect(shown).not.toMatch(DANGEROUS_RAW);
  });

  it('a bidi override cannot reorder the shown text', () => {
    const shown = visible('rm -rf ./\u202eexe.txt');
    expect(shown).toBe('rm -rf ./<U+202E>exe.txt');
  });

  it('zero-width characters inside a word are shown', () => {
    expect(visible('r\u200bm -rf /')).toBe('r<U+200B>m -rf /');
  });

  it('tag characters ("ASCII smuggling") are spelled out one by one', () => {
    const smuggled = [...'ignore'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    expect(visible(`ok${smuggled}`)).toBe('ok<U+E0069><U+E0067><U+E006E><U+E006F><U+E0072><U+E0065>');
  });

  it('a 10 KB line is bounded and fast', () => {
    const line = ('a\x1b[31m\u202e\u200b'.repeat(1000) + 'z').repeat(2);
    const t0 = performance.now();
    const shown = visible(line, { maxChars: 500 });
    const ms = performance.now() - t0;
    expect(shown.length).toBeLessThan(540);
    expect(shown).toMatch(/… \[\+\d+ chars\]$/);
    expect(shown).not.toMatch(DANGEROUS_RAW);
    expect(ms).toBeLessThan(50);
  });
});

// Random strings, weighted towards the characters that matter here.
const tricky = fc
  .array(
    fc.oneof(
      fc.constantFrom('\x1b', '\n', '\r', '\t', '\\', '<', 'U', '+', '\u202e', '\ud800', '\udc00', '😀', '\u{e0041}', '\x9b', '\u200b', 'x', '\u2800', '\u3164', '⟨', ' '),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { maxLength: 80 },
  )
  .map((parts) => parts.join(''));

describe('visible: long blank runs, collapsed and flagged (collapseRuns)', () => {
  it('990 spaces cannot push the end of a command out of view or past the bound', () => {
    const cmd = `cat notes.txt${' '.repeat(990)}-o .git/config`;
    const shown = visible(cmd, { collapseRuns: true, maxChars: 200 });
    expect(shown).toBe('cat notes.txt⟨990 spaces⟩-o .git/config');
    expect(hasLongRun(cmd)).toBe(true);
    // Without the option the run is kept, and the end is cut off (what the chat and the queue used to show).
    expect(visible(cmd, { maxChars: 200 })).not.toContain('.git/config');
  });

  it.each([
    ['tabs', `a${'\t'.repeat(20)}b`, 'a⟨20 tabs⟩b'],
    ['line feeds (multi-line too)', `a${'\n'.repeat(30)}b`, 'a⟨30 line feeds⟩b'],
    ['zero-width spaces', `a${'\u200b'.repeat(12)}b`, 'a⟨12 × U+200B⟩b'],
    ['braille blanks', `a${'\u2800'.repeat(9)}b`, 'a⟨9 × U+2800⟩b'],
    ['no-break spaces', `a${'\u00a0'.repeat(LONG_RUN)}b`, `a⟨${LONG_RUN} × U+00A0⟩b`],
  ])('%s', (_name, input, expected) => {
    expect(visible(input, { collapseRuns: true })).toBe(expected);
    expect(visible(input, { collapseRuns: true, multiline: true })).toBe(expected);
    expect(hasLongRun(input)).toBe(true);
  });

  it('short runs stay as they are; alignment spaces in ordinary commands read naturally', () => {
    const s = `echo "a${' '.repeat(LONG_RUN - 1)}b"`;
    expect(visible(s, { collapseRuns: true })).toBe(s);
    expect(hasLongRun(s)).toBe(false);
  });

  it('a marker cannot be forged: a literal ⟨ is escaped whenever runs are collapsed', () => {
    const forged = 'rm -rf ~ ⟨990 spaces⟩';
    const shown = visible(forged, { collapseRuns: true });
    expect(shown).toBe('rm -rf ~ <U+27E8>990 spaces⟩');
    expect(visible(forged)).toBe(forged); // without collapsing there are no markers to forge
  });

  it('never throws and never lets a control or invisible character through (any string, collapsed)', () => {
    fc.assert(
      fc.property(tricky, fc.boolean(), fc.integer({ min: -5, max: 400 }), (s, multiline, max) => {
        const shown = visible(s + ' '.repeat(Math.abs(max) % 20), { multiline, maxChars: max, collapseRuns: true });
        expect(shown).not.toMatch(DANGEROUS_RAW);
        expect(shown).not.toMatch(/ {8}/);
        if (!multiline) expect(shown).not.toContain('\n');
      }),
      { numRuns: 500 },
    );
  });
});

describe('visible: total', () => {
  it('never throws and never lets a control or invisible character through (any string)', () => {
    fc.assert(
      fc.property(tricky, fc.boolean(), fc.integer({ min: -5, max: 400 }), (s, multiline, max) => {
        const shown = visible(s, { multiline, maxChars: max });
        expect(typeof shown).toBe('string');
        expect(shown).not.toMatch(DANGEROUS_RAW);
        if (!multiline) expect(shown).not.toContain('\n');
        expect(shown).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/); // no lone surrogates
      }),
      { numRuns: 1000 },
    );
  });

  it('is lossless when not truncated: the escaped form decodes back to the input', () => {
    fc.assert(
      fc.property(tricky, (s) => {
        expect(decode(visible(s, { maxChars: Infinity }), hasHidden(s) || /[\n]/.test(s))).toBe(s);
      }),
      { numRuns: 1000 },
    );
  });

  it('survives values that are not strings', () => {
    const hostile = { toString: () => { throw new Error('boom'); } };
    expect(() => visible(hostile as unknown as string)).not.toThrow();
    expect(() => visible(undefined as unknown as string)).not.toThrow();
    expect(() => visible(Symbol('x') as unknown as string)).not.toThrow();
    expect(() => hasHidden(hostile as unknown as string)).not.toThrow();
    expect(visible('abc', { maxChars: Number.NaN })).toBe('abc');
  });
});

// The inverse of visible() (single-line mode), used only to prove nothing is lost or made ambiguous.
function decode(shown: string, strict: boolean): string {
  if (!strict) return shown;
  return shown.replace(/\\\\|\\<|\\x([0-9a-f]{2})|\\[tnrb]|<U\+([0-9A-F]{4,6})>/g, (m, hex?: string, cp?: string) => {
    if (m === '\\\\') return '\\';
    if (m === '\\<') return '<';
    if (hex) return String.fromCharCode(parseInt(hex, 16));
    if (cp) return String.fromCodePoint(parseInt(cp, 16));
    return { '\\t': '\t', '\\n': '\n', '\\r': '\r', '\\b': '\b' }[m]!;
  });
}
