// Issue #8 §5: mutants of what the deny list stops (test/fuzz/mutants.ts) are never allowed to run unasked. For
// every mutant, `analyzeLine` + `decisionFor` at threshold moderate give `deny` or `ask`, never `run`. Unicode
// look-alikes are other programs to the shell; they must at least be asked about as unknown programs.
// Here: every seed with every spelling and every wrapper (one change at a time) and 1,000 random compositions;
// test/stress/fuzz.stress.test.ts runs the full cross product and many more random ones.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { initParser } from '../../src/gate/parse.js';
import { SEEDS, singleMutants, SPELLINGS, type Mutant } from './mutants.js';
import { mutantsNeverRun } from './properties.js';

const config = defaultConfig();
const decide = (line: string) => decisionFor(analyzeLine(line, config, '/work/project', { home: '/home/person' }), 'moderate');

beforeAll(async () => {
  await initParser();
});

function offenders(mutants: readonly Mutant[]): string[] {
  return mutants.filter((m) => decide(m.line) === 'run').map((m) => `${JSON.stringify(m.line)} (${m.spelling}; ${m.wrappers.join(' > ') || 'bare'})`);
}

describe('the deny-list mutation corpus', () => {
  it('every seed is refused by the policy as written', () => {
    const notDenied = SEEDS.map((s) => s.template.replace('{P}', s.program)).filter((l) => decide(l) !== 'deny');
    expect(notDenied).toEqual([]);
  });

  it('no single spelling or wrapper lets a seed run unasked', () => {
    const all = singleMutants();
    expect(all.length).toBeGreaterThan(2000);
    expect(offenders(all)).toEqual([]);
  });

  it('spellings that the shell still reads as the program stay denied, not merely asked', () => {
    // Everything but computed names (which the gate cannot read, so it asks) and look-alikes (other programs).
    const readable = SPELLINGS.map((s, i) => ({ s, i })).filter(({ s }) => !s.lookalike && !/computed|expansion/.test(s.name));
    const asked: string[] = [];
    for (const seed of SEEDS) {
      for (const { s } of readable) {
        const word = s.spell(seed.program);
        const line = seed.template.replace('{P}', () => word);
        if (decide(line) !== 'deny') asked.push(`${JSON.stringify(line)} (${s.name})`);
      }
    }
    expect(asked).toEqual([]);
  });

  it('Unicode look-alikes are unknown programs: asked about (moderate), never run', () => {
    for (const word of ['ｓudo', 'ѕudo', 's\u200budo', 'ｒm', 'ｌs', 'ｃat', 'ɡit', 'ｗisp', 'ｇit status']) {
      const a = analyzeLine(`${word} x`, config, '/work/project', { home: '/home/person' });
      expect(decisionFor(a, 'moderate'), word).toBe('ask');
      expect(a.level, word).not.toBe('safe');
    }
  });

  it('1,000 random compositions (1–3 layers) never run unasked', () => mutantsNeverRun(1000));
});
