// The corpus as a whole (issue #8 §2): how many cases each data file holds; the runners beside this file play them.
import { describe, expect, it } from 'vitest';
import { loadCorpus } from './load.js';

export function corpusCounts(): Record<string, number> {
  const cases = (f: string) => loadCorpus<{ cases: unknown[] }>(f).cases.length;
  const queue = loadCorpus<{ requests: unknown[]; answers: unknown[] }>('queue-files.json');
  const answers = loadCorpus<{ result: unknown[]; queue: unknown[] }>('answers.json');
  return {
    'config files': cases('config.json'),
    'command lines': cases('cli.json'),
    'MCP arguments': cases('mcp-args.json'),
    'model tool calls': cases('tool-calls.json'),
    'queue request files': queue.requests.length,
    'queue answer files': queue.answers.length,
    'answers (result channel)': answers.result.length,
    'answers (from a terminal)': answers.queue.length,
  };
}

describe('the bad-input corpus', () => {
  it('counts its cases', () => {
    const counts = corpusCounts();
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    console.log(`bad-input corpus: ${total} cases — ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    expect(total).toBeGreaterThanOrEqual(250);
    for (const [what, n] of Object.entries(counts)) expect(n, what).toBeGreaterThan(5);
  });
});
