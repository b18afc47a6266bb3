// Remembered-answer keys: `<program> *`, `<program> <verb> *` for multiplexers, exact text where a broader key would
// cover commands the person never saw.
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyPart } from '../../src/gate/classify.js';
import { initParser, parseLine } from '../../src/gate/parse.js';
import { patternFor } from '../../src/gate/pattern.js';
import { resolveCommand } from '../../src/gate/wrappers.js';

beforeAll(async () => {
  await initParser();
});

/** The non-dangerous key of the line's last part. */
const pattern = (line: string): string => {
  const part = parseLine(line).parts.at(-1)!;
  return patternFor(part, resolveCommand(part.words).executable);
};

describe('patternFor', () => {
  it.each([
    ['touch a b', 'touch *'],
    ['echo hi > out.txt', 'echo *'],
    ['curl -s https://x.example', 'curl *'],
    ['xcodebuild -scheme App', 'xcodebuild *'],
    ['nice -n 5 touch a', 'touch *'],
    ['/usr/bin/touch a', '/usr/bin/touch a'],
  ])('%s → %s', (line, key) => {
    expect(pattern(line)).toBe(key);
  });

  it.each([
    ['git commit -m x', 'git commit *'],
    ['git -C sub -c a=b push origin', 'git push *'],
    ['git --no-pager log', 'git log *'],
    ['git --git-dir=.git fetch', 'git fetch *'],
    ['git', 'git *'],
    ['git --version', 'git *'],
    ['npm install left-pad', 'npm install *'],
    ['npm --prefix web run build', 'npm run *'],
    ['pnpm -C web add x', 'pnpm add *'],
    ['yarn --cwd web build', 'yarn build *'],
    ['cargo +nightly build', 'cargo build *'],
    // Another manifest is another project's code: exact (ADR 0093).
    ['cargo --manifest-path x/Cargo.toml test', 'cargo --manifest-path x/Cargo.toml test'],
    ['cargo --color never test', 'cargo test *'],
    ['docker -H tcp://h ps x', 'docker ps *'], // `run` runs a given command: exact (ADR 0092)
    ['kubectl -n prod get pods', 'kubectl get *'],
    ['go -C sub test ./...', 'go test *'],
    ['brew install jq', 'brew install *'],
    ['apt-get -y install jq', 'apt-get install *'],
    ['pip install -r req.txt', 'pip install *'],
    ['swift build', 'swift build *'],
    ['gh -R a/b pr list', 'gh pr *'],
    ['systemctl --user restart app', 'systemctl restart *'],
    // A task runner given another folder keeps its exact text (ADR 0100).
    ['make -C lib -j 4 install', 'make -C lib -j 4 install'],
    // A variable set on make's command line reaches its recipes: exact (ADR 0093).
    ['make CC=clang', 'make CC=clang'],
  ])('multiplexer %s → %s', (line, key) => {
    expect(pattern(line)).toBe(key);
  });

  it('a launcher verb keeps its key, and the command it runs is a part of its own with its own key (ADR 0096)', () => {
    const keys = (line: string) => parseLine(line).parts.map((p) => patternFor(p, resolveCommand(p.words).executable));
    expect(keys('npx serve dist')).toEqual(['npx serve *', 'serve *']);
    expect(keys('uv run pytest -q')).toEqual(['uv run *', 'pytest *']);
    expect(keys('uv run --with x pytest')).toEqual(['uv run --with x pytest', 'pytest *']);
  });

  it.each([
    ['python3 -m http.server 8000 --bind 127.0.0.1'],
    ['FOO=1 env python3 x.py'],
    ['node build.js'],
    ["bash -c 'make'"],
    ['sh build.sh'],
    ["perl -ne 'print' a"],
    ["awk '{print}' a"],
    ['ruby x.rb'],
    ['eval "$X"'],
    ['exec make'],
    ['xargs wc -l'],
    ['source env.sh'],
    ['. env.sh'],
    ['./build.sh --fast'],
    ['$CMD x'],
    ['env'],
    ['find . -exec grep x {} +'],
    ['weird$name x'],
  ])('exact text for %s', (line) => {
    const part = parseLine(line).parts[0]!;
    expect(patternFor(part, resolveCommand(part.words).executable)).toBe(part.text);
  });

  it('prefixes the keyword that introduced a loop or branch body', () => {
    expect(pattern('for f in *; do rm "$f"; done')).toBe('do rm "$f"');
    expect(pattern('if true; then touch a; fi')).toBe('then touch a');
  });

  it('uses the function definition text', () => {
    const part = parseLine('f() { touch a; }').parts[0]!;
    expect(patternFor(part, 'f()')).toBe('f() { touch a; }');
  });

  it('keys a program that runs its piped input by the whole pipeline', () => {
    expect(pattern('echo print | python3')).toBe('echo print | python3');
    expect(pattern('ls | xargs touch')).toBe('ls | xargs touch');
  });

  it('includes a heredoc body in an exact key', () => {
    expect(pattern('python3 <<EOF\nprint(1)\nEOF')).toBe('python3 <<EOF\nprint(1)\nEOF');
  });

  it('a program named like an object property is no multiplexer (it made the key throw)', () => {
    expect(pattern('constructor -x')).toBe('constructor *');
    expect(pattern('constructor status')).toBe('constructor *');
  });
});

describe('dangerous parts are keyed by exact text', () => {
  it.each([
    ['git push --force origin main', 'git push --force origin main'],
    ['ls; rm -rf ./build', 'rm -rf ./build'],
    ['cat ~/.ssh/id_rsa', 'cat ~/.ssh/id_rsa'],
    ['curl x | bash', 'curl x | bash'],
  ])('%s → %s', (line, key) => {
    const part = parseLine(line).parts.at(-1)!;
    expect(classifyPart(part, { rules: [], cwd: '/tmp', home: '/home/u' }).pattern).toBe(key);
  });
});
