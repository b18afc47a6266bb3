// Issue 17, the first hour of a new user, against the built bin: typos are not prompts, usage errors say what to
// type, the config refuses what would fail later, every failure is audited, the examples say what happens, and
// `wisp respond` is gone as soon as its work is done (that timing: test/stress/respond-exit.stress.test.ts).
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ROOT, freshHome, wisp } from '../helpers/cli.js';

let dir: string;
let home: string;

beforeEach(() => {
  ({ dir, home } = freshHome());
});

const script = (name: string, responses: unknown[]): string => {
  const p = join(dir, `${name}.json`);
  writeFileSync(p, JSON.stringify({ responses }));
  return p;
};

interface Event {
  kind: string;
  session: string;
  thread?: string;
  details: Record<string, unknown>;
}

const events = (): Event[] => {
  const file = join(home, 'logs/audit.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Event);
};

/** The user config says the model is a script that answers "MODEL RAN": any prompt that reaches it shows. */
const modelThatShows = (): void => {
  const s = script('shows', [{ text: 'MODEL RAN' }]);
  writeFileSync(join(home, 'config.json'), JSON.stringify({ model: `script:${s}` }));
};

describe('a prompt is never a typo', () => {
  it('attack: `wisp doctr` would cost a model turn — refused with the meant command and how to send it anyway', () => {
    modelThatShows();
    const r = wisp(['doctr'], { cwd: dir, home });
    expect(r.status).toBe(64);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "wisp: 'doctr' is not a wisp command; did you mean `wisp doctor`? To send it to the model as a prompt: `wisp -- doctr`\n",
    );
    expect(events().filter((e) => e.kind === 'prompt')).toEqual([]);
  });

  it('a mistyped subcommand with its own arguments (`wisp aprovals list`) is refused too', () => {
    modelThatShows();
    const r = wisp(['aprovals', 'list'], { cwd: dir, home });
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('did you mean `wisp approvals`?');
    expect(r.stderr).toContain('`wisp -- aprovals list`');
    expect(r.stdout).not.toContain('MODEL RAN');
  });

  it('`wisp -- doctr` sends the word to the model, as the hint says', () => {
    modelThatShows();
    const r = wisp(['--', 'doctr'], { cwd: dir, home });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('MODEL RAN');
    expect(events().find((e) => e.kind === 'prompt')?.details.text).toBe('doctr');
  });

  it('an ordinary prompt that starts near a command name still reaches the model (`wisp what is here`)', () => {
    modelThatShows();
    const r = wisp(['what', 'is', 'here'], { cwd: dir, home });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('MODEL RAN');
  });

  it('an unknown option gets the suggestion and the prompt form; no commander `error:` line', () => {
    modelThatShows();
    const r = wisp(['--jsn'], { cwd: dir, home });
    expect(r.status).toBe(64);
    expect(r.stderr).toBe("wisp: unknown option '--jsn'; did you mean `--json`? To send it to the model as a prompt: `wisp -- --jsn`\n");
    expect(r.stdout).not.toContain('MODEL RAN');
  });

  it('`wisp check ls -la` says to put the command after --, and the suggested line works', () => {
    const r = wisp(['check', 'ls', '-la'], { cwd: dir, home });
    expect(r.status).toBe(64);
    expect(r.stderr).toBe("wisp: unknown option '-la'. To check a command line that has options, put it after --: `wisp check -- ls -la`\n");
    const again = wisp(['check', '--', 'ls', '-la'], { cwd: dir, home });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('decision: run');
  });

  it('usage errors of subcommands are `wisp: …` with the help of that command, exit 64', () => {
    const missing = wisp(['config', 'set'], { cwd: dir, home });
    expect(missing.status).toBe(64);
    expect(missing.stderr).toBe("wisp: missing required argument 'key' (wisp config set --help for usage)\n");
    const unknown = wisp(['approvals', 'lst'], { cwd: dir, home });
    expect(unknown.status).toBe(64);
    expect(unknown.stderr).toBe("wisp: unknown command 'lst'; did you mean `list`? (wisp approvals --help lists its commands)\n");
    const option = wisp(['logs', '--lst', '3'], { cwd: dir, home });
    expect(option.status).toBe(64);
    expect(option.stderr).toBe("wisp: unknown option '--lst'; did you mean `--last`? (wisp logs --help for usage)\n");
  });
});

describe('the config refuses what will fail', () => {
  const configFile = () => join(home, 'config.json');
  const refused = (key: string, value: string, ...expected: string[]) => {
    const r = wisp(['config', 'set', key, value], { cwd: dir, home });
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(new RegExp(`^wisp: invalid value for ${key.replace('.', '\\.')}: `));
    for (const e of expected) expect(r.stderr).toContain(e);
    expect(r.stderr).toContain('Nothing was written');
    expect(existsSync(configFile())).toBe(false);
    expect(events().filter((e) => e.kind === 'config.change')).toEqual([]);
  };
  const forms = 'model takes ollama:NAME, openai:NAME, llama:NAME, script:PATH';

  it('attack: a backend that does not exist (`lmstudio:foo`) is refused when set, naming the accepted forms', () => {
    refused('model', 'lmstudio:foo', 'Unknown model backend "lmstudio"', 'openai:NAME', forms);
  });

  it('a script that does not exist, and an empty name, are refused', () => {
    refused('model', 'script:nope.json', `Cannot read the script ${join(dir, 'nope.json')}: no such file`, forms);
    refused('model', 'ollama:', 'names no model', forms);
    refused('model', '', 'the model spec is empty', forms);
  });

  it('a script that exists is stored by its absolute path, so later runs from elsewhere find it', () => {
    script('ok', [{ text: 'hi' }]);
    const r = wisp(['config', 'set', 'model', 'script:ok.json'], { cwd: dir, home });
    expect(r.status).toBe(0);
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toEqual({ model: `script:${join(dir, 'ok.json')}` });
    const elsewhere = join(dir, 'sub');
    mkdirSync(elsewhere);
    expect(wisp(['hello'], { cwd: elsewhere, home }).stdout.trim()).toBe('hi');
  });

  it('attack: an address without a scheme (`localhost:11434`) parses as a URL of scheme `localhost:` — refused', () => {
    refused('ollama.baseURL', 'localhost:11434', 'did you mean http://localhost:11434?', 'ollama.baseURL takes an http:// or https:// address with a host');
  });

  it('other schemes, no host, and credentials in the address are refused', () => {
    refused('openai.baseURL', 'ftp://example.test/v1', 'not http or https', 'e.g. http://127.0.0.1:8080/v1');
    refused('openai.baseURL', 'http:///v1', 'names no host');
    refused('openai.baseURL', 'http://user:secret@example.test/v1', 'OPENAI_API_KEY');
  });

  it('a config file that already holds such an address is refused when read, naming the key', () => {
    writeFileSync(configFile(), JSON.stringify({ ollama: { baseURL: 'localhost:11434' } }));
    const r = wisp(['config', 'get', 'ollama.baseURL'], { cwd: dir, home });
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('ollama.baseURL');
    expect(r.stderr).toContain('did you mean http://localhost:11434?');
  });
});

describe('wisp init', () => {
  it('writes a starter user config that loads, with its schema beside it, and never overwrites', () => {
    const r = wisp(['init'], { cwd: dir, home });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('wisp doctor');
    const written = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(written).toMatchObject({ $schema: './config.schema.json', model: 'ollama:qwen3:8b' });
    expect(JSON.parse(readFileSync(join(home, 'config.schema.json'), 'utf8'))).toHaveProperty('properties.approval');
    expect(wisp(['config', 'get', 'approval.threshold'], { cwd: dir, home }).stdout.trim()).toBe('moderate');
    writeFileSync(join(home, 'config.json'), '{"model": "ollama:mine"}');
    const again = wisp(['init'], { cwd: dir, home });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already exists; nothing was written');
    expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe('{"model": "ollama:mine"}');
  });

  it('--project writes a commented .wisprc that loads as it is and after a section is uncommented', () => {
    const r = wisp(['init', '--project'], { cwd: dir, home });
    expect(r.status).toBe(0);
    const file = join(dir, '.wisprc');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# wisp project config/);
    expect(text).toContain('#   threshold: moderate');
    const show = wisp(['config', 'show'], { cwd: dir, home });
    expect(show.status).toBe(0);
    expect(show.stderr).toBe('');
    writeFileSync(file, text.replace('# approval:', 'approval:').replace('#   threshold: moderate', '  threshold: safe'));
    const tightened = wisp(['config', 'get', 'approval.threshold'], { cwd: dir, home });
    expect(tightened.stdout.trim()).toBe('safe');
    expect(wisp(['init', '--project'], { cwd: dir, home }).status).toBe(1);
  });
});

describe('every failure is audited', () => {
  it('a model that fails (a script with no answer left) writes an error event before session.end error', () => {
    const s = script('short', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'x' } }] }]);
    const r = wisp(['respond', '-m', `script:${s}`, 'go'], { cwd: dir, home });
    expect(r.status).toBe(1);
    const log = events();
    const kinds = log.map((e) => e.kind);
    const error = log.find((e) => e.kind === 'error');
    expect(error?.details).toMatchObject({ context: 'model', model: `script:${s}` });
    expect(String(error?.details.message)).toMatch(/no response left|has no more responses|exhausted/i);
    expect(kinds.indexOf('error')).toBeLessThan(kinds.indexOf('session.end'));
    expect(log.filter((e) => e.kind === 'error')).toHaveLength(1); // once, not again by the face
    expect(log.find((e) => e.kind === 'session.end')?.details.reason).toBe('error');
    const shown = wisp(['logs', '--kind', 'error'], { cwd: dir, home });
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain('model');
  });

  it('an unreachable model server writes an error event naming the model', async () => {
    const port = await closedPort();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ ollama: { baseURL: `http://127.0.0.1:${port}` } }));
    const r = wisp(['respond', '-m', 'ollama:tiny', 'hello'], { cwd: dir, home });
    expect(r.status).toBe(1);
    const error = events().find((e) => e.kind === 'error');
    expect(error?.details).toMatchObject({ context: 'model', model: 'ollama:tiny' });
    expect(String(error?.details.message)).toContain(`127.0.0.1:${port}`);
  });

  it('attack: a failure message carrying a terminal escape (from a file name) is stored made visible', () => {
    const odd = join(dir, 'e\u001b[2Jx.json');
    writeFileSync(odd, JSON.stringify({ responses: [{ toolCalls: [{ name: 'read_file', arguments: { path: 'x' } }] }] }));
    expect(wisp(['respond', '-m', `script:${odd}`, 'go'], { cwd: dir, home }).status).toBe(1);
    const error = events().find((e) => e.kind === 'error');
    expect(String(error?.details.message)).toContain('e\\x1b[2Jx.json');
    expect(Object.values(error?.details ?? {}).map(String).join(' ')).not.toContain('\u001b');
  });
});

describe('the examples say what happens', () => {
  /** A copy of the examples in a folder of its own, standing in for the clone: nothing may appear in it. */
  const clone = () => {
    const c = join(dir, 'clone');
    mkdirSync(join(c, 'examples'), { recursive: true });
    for (const f of ['safe.json', 'moderate.json', 'denied.json', 'inquiry.json']) {
      writeFileSync(join(c, 'examples', f), readFileSync(join(ROOT, 'examples', f)));
    }
    return c;
  };
  const tmp = () => {
    const t = join(dir, 'tmp');
    mkdirSync(t, { recursive: true });
    return t;
  };

  it('moderate.json with --yes runs touch in the private temp directory: nothing is left anywhere, and it says so', () => {
    const c = clone();
    const t = tmp();
    const r = wisp(['respond', '-m', 'script:examples/moderate.json', '--yes', 'mark'], { cwd: c, home, env: { TMPDIR: t } });
    expect(r.status).toBe(0);
    // It ran (approved by --yes, exit 0) …
    const outcome = readFileSync(join(home, 'logs/audit.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"kind":"command.outcome"'))
      .map((l) => JSON.parse(l) as { details: { command: string; exitStatus: number } })
      .find((e) => e.details.command.includes('wisp-example-marker'));
    expect(outcome?.details.exitStatus).toBe(0);
    // … in a private temp directory that was thrown away: neither the host temp dir nor the clone keeps a file.
    expect(existsSync(join(t, 'wisp-example-marker'))).toBe(false);
    expect(readdirSync(c)).toEqual(['examples']);
    expect(r.stdout).toContain('private and thrown away');
    expect(r.stdout).not.toMatch(/the file now exists/);
  });

  it('moderate.json without --yes is refused and creates nothing anywhere', () => {
    const c = clone();
    const t = tmp();
    const r = wisp(['respond', '-m', 'script:examples/moderate.json', 'mark'], { cwd: c, home, env: { TMPDIR: t } });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('refused');
    expect(readdirSync(t)).toEqual([]);
    expect(readdirSync(c)).toEqual(['examples']);
  });

  it('inquiry.json under respond: the question is not asked — and not said to be declined by anyone — and the reply does not thank anyone for an answer', () => {
    const c = clone();
    const r = wisp(['respond', '-m', 'script:examples/inquiry.json', 'which'], { cwd: c, home });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/ask_operator: .* — not asked: nobody answers questions on the deny channel/);
    expect(r.stderr).not.toMatch(/— declined/);
    expect(r.stdout).not.toMatch(/thanks|noted/i);
    expect(r.stdout).toContain('declined');
  });

  it('safe.json runs at once and denied.json is refused even with --yes, as their replies say', () => {
    const c = clone();
    const safe = wisp(['respond', '--json', '-m', 'script:examples/safe.json', 'list'], { cwd: c, home });
    const out = JSON.parse(safe.stdout) as { receipt: { commands: Array<{ command: string; exitStatus: number }> }; refusals: unknown[] };
    expect(out.receipt.commands).toMatchObject([{ command: 'ls -la', exitStatus: 0 }]);
    expect(out.refusals).toEqual([]);
    const denied = wisp(['respond', '--yes', '--json', '-m', 'script:examples/denied.json', 'install'], { cwd: c, home });
    const d = JSON.parse(denied.stdout) as { text: string; refusals: Array<{ reason: string }> };
    expect(d.refusals).toHaveLength(1);
    expect(d.text).toContain('refused even with --yes');
  });
});

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}
