// Issue 12.4, ADR 0039: the work one line may cost the gate is bounded, and each bound fails closed. These tests
// check the behaviour at the bounds (no timing here: test/fuzz/decision-time.test.ts measures CPU time per decision).
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { builtinDeny } from '../../src/gate/deny.js';
import { MAX_PARTS } from '../../src/gate/limits.js';
import { initParser, parseLine } from '../../src/gate/parse.js';

const config = defaultConfig();
const fill = (unit: string, size = 16 * 1024): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

beforeAll(async () => {
  await initParser();
});

describe('a cancelled parse leaves nothing behind', () => {
  it('attack: a hostile line whose parse is cut short does not leak its half-built state into the next line', () => {
    // 16 KiB of `a|` takes tree-sitter seconds of error recovery: it is always cut off by the parse budget.
    for (let round = 0; round < 3; round++) {
      const hostile = parseLine(fill('a|'));
      expect(hostile.hadErrors).toBe(true);
      // Without a reset the parser resumed the cut-off parse on this text: one-letter parts, and no error flagged.
      const next = parseLine('echo hi; rm -rf ~');
      expect(next.parts.map((p) => p.words)).toEqual([['echo', 'hi'], ['rm', '-rf', '~']]);
      expect(next.hadErrors).toBe(false);
    }
  });
});

describe('many statements in one line', () => {
  it(`reads a line of up to ${MAX_PARTS} statements part by part`, () => {
    const line = Array.from({ length: MAX_PARTS }, () => 'ls').join('; ');
    const parsed = parseLine(line);
    expect(parsed.parts).toHaveLength(MAX_PARTS);
    expect(parsed.hadErrors).toBe(false);
    expect(decisionFor(analyzeLine(line, config, '/tmp'), 'moderate')).toBe('run');
  });

  it('attack: thousands of harmless statements hiding one deletion are one unparsed, dangerous part (never run, never a standing approval)', () => {
    const line = `${Array.from({ length: 3000 }, () => 'ls').join('; ')}; rm -rf ~; ls`;
    const parsed = parseLine(line);
    expect(parsed.parts).toHaveLength(1);
    expect(parsed.parts[0]!.unparsed).toBe(true);
    const a = analyzeLine(line, config, '/tmp');
    expect(a.level).toBe('dangerous');
    expect(a.parts[0]!.reasons.join(' ')).toMatch(/more than 512 commands/);
    expect(decisionFor(a, 'dangerous')).toBe('ask');
  });

  it('attack: a sudo after thousands of statements is still denied', () => {
    const line = `${'ls;'.repeat(5500)}sudo rm -rf /`;
    expect(analyzeLine(line, config, '/tmp').policy).toBe('denied');
  });
});

describe('the deny scan has a work budget', () => {
  it.each([
    ['a launcher chain', fill("script -qc 'ls' ")],
    ['a wrapper chain', `${fill('env ')}ls`],
    ['a watch chain', fill('watch ')],
  ])('attack: %s (quadratic to scan) is refused as too intricate, not scanned for seconds', (_name, line) => {
    const parsed = parseLine(line);
    const hit = builtinDeny(line, parsed.parts);
    expect(hit?.name).toBe('too-intricate');
    expect(analyzeLine(line, config, '/tmp').policy).toBe('denied');
  });

  it('ordinary launcher lines stay far below the budget', () => {
    for (const line of ["script -qc 'ls -la' /dev/null", 'env FOO=1 nice -n 5 timeout 10 ls', 'watch -n 1 git status', "npx -y tsx -e 'console.log(1)'"]) {
      expect(builtinDeny(line, parseLine(line).parts)?.name).not.toBe('too-intricate');
    }
  });
});
