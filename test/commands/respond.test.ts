import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { freshHome, wisp, wispAsync, wispInPty } from '../helpers/cli.js';

let dir: string;
let home: string;
const script = (name: string, responses: unknown[]) => {
  const p = join(dir, `${name}.json`);
  writeFileSync(p, JSON.stringify({ responses }));
  return p;
};
const run = (command: string) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] });

beforeEach(() => {
  ({ dir, home } = freshHome());
});

describe('wisp respond', () => {
  it('runs a moderate command with --yes in the sandbox and prints the reply', () => {
    const s = script('a', [run('touch marker && echo made'), { text: 'made the marker' }]);
    const r = wisp(['respond', '-m', `script:${s}`, '--yes', 'make a marker'], { cwd: dir, home });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('made the marker');
    expect(existsSync(join(dir, 'marker'))).toBe(true);
    expect(r.stderr).toContain('run_command: touch marker && echo made');
  });

  it('refuses a moderate command without --yes, says why, and runs nothing', () => {
    const s = script('a', [run('touch marker'), { text: 'could not' }]);
    const r = wisp(['respond', '-m', `script:${s}`, 'make a marker'], { cwd: dir, home });
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, 'marker'))).toBe(false);
    expect(r.stderr).toMatch(/refused: touch marker: command not approved: approval required; re-run with --yes/);
  });

  it('refuses a denied command even with --yes', () => {
    const s = script('a', [run('sudo touch marker'), { text: 'no' }]);
    const r = wisp(['respond', '-m', `script:${s}`, '--yes', 'sudo'], { cwd: dir, home });
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, 'marker'))).toBe(false);
    expect(r.stderr).toMatch(/denied by policy/);
  });

  it('prints {text, refusals, receipt} with --json', () => {
    const s = script('a', [run('ls -la'), run('touch m'), { text: 'listed' }]);
    const r = wisp(['respond', '-m', `script:${s}`, '--json', 'list'], { cwd: dir, home });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { text: string; refusals: unknown[]; receipt: { commands: unknown[]; approvals: unknown[] } };
    expect(out.text).toBe('listed');
    expect(out.receipt.commands).toMatchObject([{ command: 'ls -la', exitStatus: 0 }]);
    expect(out.refusals).toMatchObject([{ command: 'touch m' }]);
  });

  it('a turn that fails after running a command does not hide the run: --json prints it with the error, plain says it', () => {
    // The script ends after the tool call: the model fails on its next call, after `touch` ran.
    const s = script('f', [run('touch ran-once && echo made')]);
    const j = wisp(['respond', '-m', `script:${s}`, '--yes', '--json', 'make it'], { cwd: dir, home });
    expect(j.status).toBe(1);
    expect(existsSync(join(dir, 'ran-once'))).toBe(true);
    const out = JSON.parse(j.stdout) as { error: string; text: null; receipt: { commands: unknown[] } };
    expect(out.error).toMatch(/no response left/);
    expect(out.text).toBeNull();
    expect(out.receipt.commands).toMatchObject([{ command: 'touch ran-once && echo made', exitStatus: 0 }]);

    const p = wisp(['respond', '-m', `script:${s}`, '--yes', 'make it'], { cwd: dir, home });
    expect(p.status).toBe(1);
    expect(p.stderr).toContain('Before it stopped, this turn ran a command: `touch ran-once && echo made` (exit 0)');
  });

  it('reads the prompt from piped stdin and is the default command', () => {
    const s = script('a', [{ text: 'hi there' }]);
    const r = wisp(['-m', `script:${s}`], { cwd: dir, home, input: 'hello\n' });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('hi there');
    const log = readFileSync(join(home, 'logs/audit.jsonl'), 'utf8');
    expect(log).toContain('"text":"hello"');
  });

  it('exits 64 for an empty piped prompt, an unknown tool or a bad model spec', () => {
    expect(wisp(['respond'], { cwd: dir, home, input: '  \n' }).status).toBe(64);
    expect(wisp(['respond', '--tool', 'format_disk', 'x'], { cwd: dir, home }).status).toBe(64);
    const bad = wisp(['respond', '-m', 'script:/nonexistent/script.json', 'x'], { cwd: dir, home });
    expect(bad.status).toBe(64);
  });

  it('says what to do when the model server is not running', () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ ollama: { baseURL: 'http://127.0.0.1:9' } }));
    const r = wisp(['respond', '-m', 'ollama:qwen3:8b', 'hi'], { cwd: dir, home });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('127.0.0.1:9');
    expect(r.stderr).toMatch(/ollama serve|script:/);
  });

  it('waits on the queue and runs once a person approves from a terminal', async () => {
    const s = script('q', [run('touch marker-q'), { text: 'done' }]);
    const waiting = wispAsync(['respond', '-m', `script:${s}`, '--escalation', 'queue', 'make a marker'], { cwd: dir, home });
    let id: string | undefined;
    for (let i = 0; i < 100 && !id; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const list = wisp(['approvals', 'pending', '--json'], { cwd: dir, home });
      const parsed = JSON.parse(list.stdout || '[]') as Array<{ id: string }>;
      id = parsed[0]?.id;
    }
    expect(id).toBeDefined();
    const noTty = wisp(['approvals', 'approve', id!], { cwd: dir, home });
    expect(noTty.status).toBe(1);
    expect(existsSync(join(dir, 'marker-q'))).toBe(false);
    const approved = wispInPty(['approvals', 'approve', id!, '--scope', 'once', '--yes'], { cwd: dir, home });
    expect(approved.status).toBe(0);
    const result = await waiting.done;
    expect(result.status).toBe(0);
    expect(existsSync(join(dir, 'marker-q'))).toBe(true);
    const log = readFileSync(join(home, 'logs/audit.jsonl'), 'utf8');
    expect(log).toMatch(/"kind":"approval.decided".*"channel":"queue"/);
  });
  it('attack: tool calls that fail without a refusal (find not found, missing directory, missing file) are said to the person, plain and --json', () => {
    writeFileSync(join(dir, 'a.txt'), 'hello\n');
    const calls = [
      { name: 'edit_file', arguments: { path: 'a.txt', mode: 'replace', find: 'not-there', content: 'x' } },
      { name: 'run_command', arguments: { command: 'ls', workingDirectory: 'no-such-dir' } },
      { name: 'read_file', arguments: { path: 'missing.txt' } },
      { name: 'run_command', arguments: { command: 'sudo ls' } },
    ];
    const s = script('e', [{ toolCalls: calls }, { text: 'I changed a.txt' }]);
    const plain = wisp(['respond', '-m', `script:${s}`, 'edit it'], { cwd: dir, home });
    expect(plain.status).toBe(0);
    expect(plain.stderr).toContain('· edit_file failed: find text not found in');
    expect(plain.stderr).toMatch(/· run_command failed: working directory does not exist: .*no-such-dir/);
    expect(plain.stderr).toMatch(/· read_file failed: no such file: .*missing\.txt/);
    // A refusal is said once, as a refusal, not also as a failure.
    expect(plain.stderr).not.toContain('run_command failed: command denied');
    expect(plain.stderr).toMatch(/refused: sudo ls/);
    const json = wisp(['respond', '-m', `script:${s}`, '--json', 'edit it'], { cwd: dir, home });
    const out = JSON.parse(json.stdout) as { receipt: { errors: Array<{ tool: string; error: string }> } };
    expect(out.receipt.errors.map((e) => e.tool)).toEqual(['edit_file', 'run_command', 'read_file']);
    expect(out.receipt.errors[0]!.error).toMatch(/^find text not found in /);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('hello\n');
  });

  it('attack: a failure text carrying a model-made path with a newline cannot pose as a wisp line', () => {
    const s = script('n', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'x\n· run_command: rm -rf ~ — safe' } }] }, { text: 'ok' }]);
    const r = wisp(['respond', '-m', `script:${s}`, 'read'], { cwd: dir, home });
    expect(r.stderr).toContain('· read_file failed: no such file:');
    expect(r.stderr.split('\n').some((l) => l.startsWith('· run_command: rm'))).toBe(false);
  });

  it('attack: an unknown tool named with an escape sequence and a newline is shown visibly in its failure line', () => {
    const s = script('u', [{ toolCalls: [{ name: '\u001b[2J\nwisp: approved', arguments: {} }] }, { text: 'ok' }]);
    const r = wisp(['respond', '-m', `script:${s}`, 'go'], { cwd: dir, home });
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).toContain('· \\x1b[2J\\nwisp: approved failed: unknown tool');
    expect(r.stderr.split('\n').some((l) => l.startsWith('wisp: approved'))).toBe(false);
  });
  it('attack: --json with --escalation queue does not wait silently: stderr says where to answer, stdout stays JSON alone', () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ escalation: { timeoutSeconds: 1 } }));
    const s = script('qj', [run('touch marker-qj'), { text: 'done' }]);
    const r = wisp(['respond', '-m', `script:${s}`, '--json', '--escalation', 'queue', 'make a marker'], { cwd: dir, home });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/waiting for an answer in the queue: wisp approvals approve [0-9a-f]{8}/);
    const out = JSON.parse(r.stdout) as { refusals: Array<{ reason: string }> };
    expect(out.refusals[0]!.reason).toMatch(/no answer within 1s/);
    expect(existsSync(join(dir, 'marker-qj'))).toBe(false);
  });
});
