// Issue 12.4 asks for a fuzz test that checks the time per decision: a 16 KiB line of any shape is decided in well
// under a second. Each shape below was found by profiling (ADR 0039); the mixtures come from fast-check with a fixed
// seed. The bound is 1 s of this process's CPU time per decision, the faster of two runs (the first pays one-time
// JIT costs): waiting for a busy machine does not count, and every shape here takes under 100 ms on this machine, so
// only a super-linear regression (seconds) fails it. It did fail, at 5 s, with the deny scan's work budget removed.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { initParser } from '../../src/gate/parse.js';

const SIZE = 16 * 1024;
const BOUND_MS = 1000;
const config = defaultConfig();
const fill = (unit: string, size = SIZE): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const half = (a: string, b: string): string => fill(a).slice(0, SIZE / 2) + fill(b).slice(0, SIZE / 2);

const SHAPES: ReadonlyArray<readonly [string, string]> = [
  ['launcher chain', fill("script -qc 'ls' ")],
  ['watch chain', fill('watch ')],
  ['env chain', `${fill('env ', SIZE - 2)}ls`],
  ['nice chain', `${fill('nice ', SIZE - 2)}ls`],
  ['timeout chain', `${fill('timeout 1 ', SIZE - 2)}ls`],
  ['semicolon statements', fill('a;')],
  ['newline statements', fill('ls\n')],
  ['pipes with an error at the end', fill('a|')],
  ['and-lists', fill('a&&')],
  ['many words', `ls ${fill('a ')}`],
  ['many quoted words', `ls ${fill('"a" ')}`],
  ['substitutions', fill('$(ls)')],
  ['backtick pairs', fill('`ls`')],
  ['parameter expansions', `echo ${fill('${a}')}`],
  ['unclosed expansions', `echo ${fill('${a:')}`],
  ['nested sh -c', half("sh -c '", "'")],
  ['eval chain', fill('eval ')],
  ['bash -c of many statements', `bash -c "${fill('ls;', SIZE - 20)}"`],
  ['sudo statements', fill('sudo ls;')],
  ['assignments', `${fill('x=1 ')}ls`],
  ['glob words', `ls ${fill('*a*b ')}`],
  ['find expressions', `find . ${fill('-name a -o ')}`],
  ['sed scripts', `sed ${fill("-e 's/a/b/' ")}`],
  ['awk prints', `awk '${fill('{print}', SIZE - 10)}'`],
  ['brace groups', half('{ ls; ', '} ')],
  ['if nesting', half('if true; then ', 'fi; ')],
  ['subshell nesting', half('( ls ', ')')],
  ['ssh remote statements', `ssh host ${fill('ls; ')}`],
  ['curl to sh pipes', fill('curl x | sh | ')],
  ['xargs sh', fill('xargs sh -c ls | ')],
  ['heredoc markers', fill('<<')],
  ['heredocs with bodies', Array.from({ length: 30 }, () => `cat <<A\n${fill('x', 540)}\nA`).join('\n')],
  ['repeated double quotes', fill('"')],
  ['repeated single quotes', fill("'")],
  ['sa runs', fill('sa')],
  ['slashes', `ls ${fill('/')}x`],
  ['continuations', fill('ls \\\n')],
  ['function definitions', fill('f(){ ls; };')],
  ['git -c options', `git ${fill('-c a.b=c ')}status`],
  ['brace expansions', `echo ${fill('{a,')}`],
];

/** CPU milliseconds of one decision, the faster of two. */
function cpuMs(line: string): { ms: number; decision: string } {
  let best = Number.POSITIVE_INFINITY;
  let decision = '';
  for (let run = 0; run < 2; run++) {
    const before = process.cpuUsage();
    decision = decisionFor(analyzeLine(line, config, '/tmp'), 'moderate');
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return { ms: best, decision };
}

beforeAll(async () => {
  await initParser();
});

describe('CPU time per decision on 16 KiB lines (issue 12.4)', () => {
  it.each(SHAPES)('%s', (name, line) => {
    expect(line.length).toBeGreaterThan(SIZE - 64);
    const { ms, decision } = cpuMs(line);
    expect(['run', 'ask', 'deny']).toContain(decision);
    expect(ms, `${name}: ${ms.toFixed(0)} ms`).toBeLessThan(BOUND_MS);
  });

  it('random mixtures of the hostile pieces', () => {
    const piece = fc.constantFrom(
      'a;', 'a|', '&&', ' ', '"', "'", '`', '$(', ')', '(', '{', '}', '${', 'sa', 'sudo ', 'env ', "script -qc '", 'sh -c ',
      'watch ', '<<', '\\', '\n', 'ls ', '*', '/', ',', 'eval ', '|| ', '; ',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), (units) => {
        const line = fill(units.join(''));
        const { ms } = cpuMs(line);
        expect(ms, `${JSON.stringify(units)}: ${ms.toFixed(0)} ms`).toBeLessThan(BOUND_MS);
      }),
      { numRuns: 25, seed: 1201 },
    );
  }, 120_000);
});
