// Issue #12 §5: the attack corpus in the fuzz mutators. Every attack, re-spelled and wrapped in harmless
// surroundings, is still asked about or denied; the ordinary read-only lines, wrapped the same harmless ways, still run.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { initParser } from '../../src/gate/parse.js';
import { attackMutant } from './attack-mutants.js';

const RUNS = Number(process.env.WISP_FUZZ_RUNS ?? '300');
const config = defaultConfig();
const decide = (line: string) => decisionFor(analyzeLine(line, config, '/home/person/project', { home: '/home/person' }), 'moderate');

beforeAll(async () => {
  await initParser();
});

describe('attack mutants', () => {
  it(`no re-spelling or harmless wrapping of an issue #12 attack runs unasked (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(attackMutant, ({ name, line }) => {
        expect(decide(line), `${name}: ${line}`).not.toBe('run');
      }),
      { numRuns: RUNS },
    );
  });

  it('the wrappers themselves keep ordinary work running', () => {
    for (const line of ['time ls -la', 'nice -n 5 git status', 'timeout 5 rg foo', 'command ls', 'ls 2>/dev/null', '( git status )', '{ ls; }', 'if true; then ls; fi']) {
      expect(decide(line), line).toBe('run');
    }
  });
});
