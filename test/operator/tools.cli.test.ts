// `wisp tools` through the built CLI: the catalogue as a table/TSV, --json (parsed) and --markdown.
import { beforeEach, describe, expect, it } from 'vitest';
import { freshHome, wisp, wispInPty } from '../helpers/cli.js';

let dir: string;
let home: string;
const run = (...args: string[]) => wisp(['tools', ...args], { cwd: dir, home });

beforeEach(() => {
  ({ dir, home } = freshHome());
});

describe('wisp tools', () => {
  it('--json is the catalogue with a JSON Schema per tool', () => {
    const r = run('--json');
    expect(r.status).toBe(0);
    const { tools } = JSON.parse(r.stdout) as { tools: Array<{ name: string; description: string; inputSchema: { type: string; properties: Record<string, unknown>; required?: string[] }; limits: string[]; example: string }> };
    expect(tools.map((t) => t.name)).toEqual(['run_command', 'read_file', 'edit_file', 'ask_operator']);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.description.length).toBeGreaterThan(20);
      expect(Array.isArray(t.limits)).toBe(true);
    }
    expect(tools[0]?.inputSchema.required).toContain('command');
    expect(tools[3]?.inputSchema.properties).toHaveProperty('question');
  });

  it('--markdown has a section per tool', () => {
    const r = run('--markdown');
    expect(r.status).toBe(0);
    for (const name of ['run_command', 'read_file', 'edit_file', 'ask_operator']) expect(r.stdout).toContain(`## ${name}`);
  });

  it('piped: one tab-separated line per tool (name, arguments, description)', () => {
    const r = run();
    expect(r.status).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows.map((row) => row[0])).toEqual(['run_command', 'read_file', 'edit_file', 'ask_operator']);
    expect(rows.every((row) => row.length === 3)).toBe(true);
    expect(rows[0]?.[1]).toBe('command, workingDirectory?');
  });

  it('on a terminal: a table with a header', () => {
    const r = wispInPty(['tools'], { cwd: dir, home });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^TOOL\s+ARGUMENTS\s+DESCRIPTION/m);
    expect(r.stdout).toMatch(/^ask_operator\s+question, schema\?\s+\S/m);
  });

  it('--json with --markdown is a usage error', () => {
    expect(run('--json', '--markdown').status).toBe(64);
  });
});
