// Issue #16.3: speeding the gate up must not change one decision. decisions.json holds, for every line of lines.ts,
// the gate's decision and a hash of everything it said (the parsed parts, each part's level, reasons, pattern, the
// policy's verdict and rule), recorded with the gate as it was before the rewrite. Any difference fails this test.
// To record again (only after a deliberate, reviewed change of the rules): WISP_GOLDEN_RECORD=1 npx vitest run <this>.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../../src/gate/analyze.js';
import { initParser, parseLine } from '../../../src/gate/parse.js';
import { defaultConfig } from '../../../src/config/schema.js';
import { goldenLines } from './lines.js';

const FILE = new URL('./decisions.json', import.meta.url);
const config = defaultConfig();

function record(line: string): string {
  const analysis = analyzeLine(line, config, '/work/project', { home: '/home/person' });
  const said = JSON.stringify({ parsed: parseLine(line), analysis });
  const hash = createHash('sha256').update(said).digest('base64url').slice(0, 16);
  return `${decisionFor(analysis, config.approval.threshold)} ${analysis.level} ${hash}`;
}

beforeAll(async () => {
  await initParser();
});

describe('recorded gate decisions', () => {
  it('every recorded line is decided, and said, exactly as recorded', { timeout: 300_000 }, () => {
    const lines = goldenLines();
    const now: Record<string, string> = {};
    for (const line of lines) now[line] = record(line);
    if (process.env.WISP_GOLDEN_RECORD === '1') writeFileSync(FILE, JSON.stringify(now, null, 0).replaceAll('","', '",\n"') + '\n');
    const recorded = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, string>;
    // The record covers the corpora: a line added to them is recorded on purpose, not silently skipped.
    expect(Object.keys(recorded).length).toBe(lines.length);
    const differences = lines.filter((l) => recorded[l] !== now[l]).map((l) => ({ line: l, recorded: recorded[l], now: now[l] }));
    expect(differences.slice(0, 20)).toEqual([]);
    expect(differences.length).toBe(0);
  });
});
