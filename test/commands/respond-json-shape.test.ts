// `wisp respond --json` is read by scripts: its keys and each record's fields are the ones docs/wisp.md lists ("The
// `--json` result"), no more and no fewer — a field added or renamed without the docs fails here (ADR 0102).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ROOT, freshHome, wisp } from '../helpers/cli.js';

let dir: string;
let home: string;
beforeEach(() => {
  ({ dir, home } = freshHome());
});

/** The table in docs/wisp.md: key → [required fields, optional fields]. */
function documented(): Map<string, { required: string[]; optional: string[] }> {
  const doc = readFileSync(join(ROOT, 'docs/wisp.md'), 'utf8');
  const start = doc.indexOf('#### The `--json` result');
  expect(start).toBeGreaterThan(0);
  const rows = doc.slice(start).split('\n').slice(1);
  const table = new Map<string, { required: string[]; optional: string[] }>();
  for (const row of rows) {
    if (row.startsWith('#')) break;
    const cells = row.split(' | ');
    const key = /^\| `([a-z.]+)`$/.exec(cells[0] ?? '')?.[1];
    if (key === undefined) continue;
    // The fields are the backticked names outside parentheses (inside them: a field's values).
    const fields = [...(cells[2] ?? '').replace(/\([^)]*\)/g, '').matchAll(/`([A-Za-z]+)(\??)`/g)];
    table.set(key, { required: fields.filter((m) => m[2] === '').map((m) => m[1]!), optional: fields.filter((m) => m[2] === '?').map((m) => m[1]!) });
  }
  return table;
}

function checkRecords(key: string, records: readonly Record<string, unknown>[], doc: ReturnType<typeof documented>): void {
  const spec = doc.get(key);
  expect(spec, `${key} is documented`).toBeDefined();
  for (const r of records) {
    const fields = Object.keys(r);
    for (const f of spec!.required) expect(fields, `${key} has ${f}`).toContain(f);
    for (const f of fields) expect([...spec!.required, ...spec!.optional], `${key}.${f} is documented`).toContain(f);
  }
}

describe('wisp respond --json', () => {
  it('every key and every record field of a turn that did everything is the documented one', () => {
    const s = join(dir, 's.json');
    const call = (name: string, args: unknown) => ({ toolCalls: [{ name, arguments: args }] });
    writeFileSync(
      s,
      JSON.stringify({
        responses: [
          call('run_command', { command: 'touch made' }),
          call('edit_file', { path: 'new.txt', mode: 'write', content: 'hi\n' }),
          call('edit_file', { path: 'new.txt', mode: 'replace', find: 'absent', content: 'x' }),
          call('run_command', { command: 'sudo ls' }),
          call('ask_operator', { question: 'which?' }),
          { text: 'done' },
        ],
      }),
    );
    const r = wisp(['respond', '--yes', '--json', '-m', `script:${s}`, 'go'], { cwd: dir, home });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown> & { receipt: Record<string, Record<string, unknown>[]> };
    const doc = documented();
    expect(Object.keys(out).sort()).toEqual(['receipt', 'refusals', 'text']);
    expect(Object.keys(out.receipt).sort()).toEqual(
      [...doc.keys()].filter((k) => k.startsWith('receipt.')).map((k) => k.slice('receipt.'.length)).sort(),
    );
    for (const [key, records] of Object.entries(out.receipt)) {
      expect(records.length, `the turn filled receipt.${key}`).toBeGreaterThan(0);
      checkRecords(`receipt.${key}`, records, doc);
    }
    checkRecords('refusals', out.refusals as Record<string, unknown>[], doc);
  });

  it('a failed turn (the script used up after a command) adds error, with text null, and keeps the other keys', () => {
    const s = join(dir, 's.json');
    writeFileSync(s, JSON.stringify({ responses: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'ls' } }] }] }));
    const r = wisp(['respond', '--json', '-m', `script:${s}`, 'go'], { cwd: dir, home });
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(out).sort()).toEqual(['error', 'receipt', 'refusals', 'text']);
    expect(out.text).toBeNull();
    checkRecords('receipt.commands', (out.receipt as { commands: Record<string, unknown>[] }).commands, documented());
    expect(documented().has('error')).toBe(true);
  });
});
