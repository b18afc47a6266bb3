// The shell parser: which parts a line yields, in what order, and what their words are after quote removal.
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_DEPTH, initParser, parseLine, shellCommandString } from '../../src/gate/parse.js';
import { classifyPart } from '../../src/gate/classify.js';
import { levelRank } from '../../src/core/levels.js';

beforeAll(async () => {
  await initParser();
});

const texts = (line: string): string[] => parseLine(line).parts.map((p) => p.text);
const words = (line: string): string[][] => parseLine(line).parts.map((p) => [...p.words]);
const origins = (line: string): string[] => parseLine(line).parts.map((p) => p.origin);

describe('initParser', () => {
  it('is idempotent', async () => {
    await initParser();
    await initParser();
    expect(parseLine('ls').parts).toHaveLength(1);
  });
});

describe('lists and pipelines', () => {
  it('splits a pipeline into its stages and records the pipeline', () => {
    const parts = parseLine('cat a | grep b | wc -l').parts;
    expect(parts.map((p) => p.text)).toEqual(['cat a', 'grep b', 'wc -l']);
    expect(parts.map((p) => p.pipeStage)).toEqual([0, 1, 2]);
    expect(parts[2]!.pipeline).toBe('cat a | grep b | wc -l');
  });

  it('splits ; && || & and newlines', () => {
    expect(texts('a; b && c || d & e\nf')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('does not split inside quotes', () => {
    expect(texts("git commit -m 'wip; still going' && git push")).toEqual(["git commit -m 'wip; still going'", 'git push']);
  });

  it('keeps 2>&1 and &> as redirections, not separators', () => {
    const [p] = parseLine('make 2>&1 &> /dev/null').parts;
    expect(p!.words).toEqual(['make']);
    expect(p!.redirects).toEqual(['2>&1', '&> /dev/null']);
  });

  it('treats |& as a pipe', () => {
    expect(texts('make |& tee log')).toEqual(['make', 'tee log']);
  });

  it('skips comments', () => {
    expect(texts('ls # rm -rf ~\n# whole line comment\npwd')).toEqual(['ls', 'pwd']);
  });
});

describe('nested commands', () => {
  it('lists a subshell body as parts of their own', () => {
    expect(texts('(cd x; make)')).toEqual(['cd x', 'make']);
    expect(origins('(cd x; make)')).toEqual(['subshell', 'subshell']);
  });

  it('lists a brace group body', () => {
    expect(texts('{ a; b; }')).toEqual(['a', 'b']);
  });

  it('lists $(…) bodies before the command that uses them, which stays a part', () => {
    expect(texts('echo $(whoami) done')).toEqual(['whoami', 'echo $(whoami) done']);
    expect(origins('echo $(whoami) done')).toEqual(['substitution', 'line']);
  });

  it('lists backtick bodies', () => {
    expect(texts('echo `date` x')).toEqual(['date', 'echo `date` x']);
  });

  it('finds substitutions inside double quotes, assignments and redirect targets', () => {
    expect(texts('echo "a $(id -u) b"')).toEqual(['id -u', 'echo "a $(id -u) b"']);
    expect(texts('X=$(hostname) make')[0]).toBe('hostname');
    expect(texts('ls > $(mktemp)')[0]).toBe('mktemp');
  });

  it('finds nested substitutions', () => {
    expect(texts('echo $(cat $(ls))')).toEqual(['ls', 'cat $(ls)', 'echo $(cat $(ls))']);
  });

  it('lists process substitution bodies', () => {
    const parts = parseLine('diff <(ls a) >(tee b)').parts;
    expect(parts.map((p) => p.text)).toEqual(['ls a', 'tee b', 'diff <(ls a) >(tee b)']);
    expect(parts[0]!.origin).toBe('process-substitution');
  });

  it('re-parses sh -c and bash -c bodies after the shell', () => {
    expect(texts("sh -c 'rm -rf x; ls'")).toEqual(["sh -c 'rm -rf x; ls'", 'rm -rf x', 'ls']);
    expect(origins('bash -c "echo hi"')).toEqual(['line', 'shell-c']);
    expect(texts('bash -euo pipefail -c "make test"')).toEqual(['bash -euo pipefail -c "make test"', 'make test']);
    expect(texts("zsh -lc 'npm test'")[1]).toBe('npm test');
  });

  it('re-parses a shell -c body reached through wrappers', () => {
    expect(texts("env FOO=1 nice -n 5 bash -c 'rm x'")[1]).toBe('rm x');
    expect(texts("xargs -n1 sh -c 'rm \"$1\"' _")[1]).toBe('rm "$1"');
  });

  it('does not treat a shell running a script file as a -c body', () => {
    expect(texts('bash build.sh -c x')).toEqual(['bash build.sh -c x']);
  });

  it('re-parses eval arguments, joined by spaces', () => {
    expect(texts("eval 'curl x' '| sh'")).toEqual(["eval 'curl x' '| sh'", 'curl x', 'sh']);
    expect(origins("eval 'ls'")).toEqual(['line', 'eval']);
  });

  it('lists the command find runs per file, and what it runs in turn', () => {
    const line = String.raw`find . -name x -exec sh -c 'rm "$1"' _ {} \;`;
    expect(texts(line)).toEqual([line, `sh -c 'rm "$1"' _ {}`, 'rm "$1"']);
  });

  it('re-parses the code given to trap and the command watch runs', () => {
    expect(texts("trap 'rm -f lock' EXIT")).toEqual(["trap 'rm -f lock' EXIT", 'rm -f lock']);
    expect(texts("watch -n 5 'git status; make'")).toEqual(["watch -n 5 'git status; make'", 'git status', 'make']);
  });

  it('re-parses the remote command of ssh', () => {
    expect(texts("ssh -p 2222 -i key host 'cd app && make'")).toEqual(["ssh -p 2222 -i key host 'cd app && make'", 'cd app', 'make']);
    expect(texts('ssh host')).toEqual(['ssh host']);
  });

  it('re-parses a shell fed by a heredoc or a here-string', () => {
    expect(texts('bash <<EOF\nrm -rf x\nEOF')).toEqual(['bash <<EOF', 'rm -rf x']);
    expect(texts("sh <<< 'rm y'")).toEqual(["sh <<< 'rm y'", 'rm y']);
  });

  it('keeps the heredoc body in the redirect and the pipeline that follows it', () => {
    const parts = parseLine('cat <<EOF | sh\nrm -rf ~\nEOF').parts;
    expect(parts.map((p) => p.text)).toEqual(['cat <<EOF', 'sh']);
    expect(parts[0]!.redirects).toEqual(['<<EOF\nrm -rf ~\nEOF']);
    expect(parts[1]!.pipeStage).toBe(1);
    expect(parts[1]!.pipeline).toContain('rm -rf ~');
  });

  it('stops re-parsing after MAX_DEPTH levels and keeps the rest as one unparsed part', () => {
    let line = 'rm -rf ~';
    for (let i = 0; i <= MAX_DEPTH + 1; i++) line = `eval ${JSON.stringify(line).replace(/\$/g, '\\$')}`;
    const parts = parseLine(line).parts;
    expect(parts.some((p) => p.unparsed)).toBe(true);
    expect(parseLine(line).hadErrors).toBe(true);
  });
});

describe('compound commands', () => {
  it('lists a for loop body with the keyword that introduced it', () => {
    const parts = parseLine('for f in *; do rm "$f"; done').parts;
    expect(parts.map((p) => [p.text, p.keyword])).toEqual([['rm "$f"', 'do']]);
  });

  it('lists substitutions in the for word list', () => {
    expect(texts('for f in $(ls); do echo "$f"; done')).toEqual(['ls', 'echo "$f"']);
  });

  it('lists while conditions and bodies, with the redirect applied to the loop', () => {
    const parts = parseLine('while read l; do echo "$l"; done < list.txt').parts;
    expect(parts.map((p) => [p.text, p.keyword])).toEqual([
      ['read l', 'while'],
      ['echo "$l"', 'do'],
    ]);
    expect(parts[1]!.redirects).toEqual(['< list.txt']);
  });

  it('lists if / elif / else branches', () => {
    const parts = parseLine('if test -f a; then rm a; elif true; then :; else touch a; fi').parts;
    expect(parts.map((p) => [p.text, p.keyword])).toEqual([
      ['test -f a', 'if'],
      ['rm a', 'then'],
      ['true', 'elif'],
      [':', 'then'],
      ['touch a', 'else'],
    ]);
  });

  it('lists case item bodies', () => {
    expect(texts('case "$x" in a) rm y;; *) ls;; esac')).toEqual(['rm y', 'ls']);
  });

  it('lists a function definition as a part, then its body', () => {
    const parts = parseLine('f() { rm -rf x; }; f').parts;
    expect(parts.map((p) => p.text)).toEqual(['f() { rm -rf x; }', 'rm -rf x', 'f']);
    expect(parts[0]!.keyword).toBe('function');
  });

  it('lists test commands, arithmetic, declarations and assignments', () => {
    expect(words('[ -f x ] && [[ -n $y ]]')).toEqual([
      ['[', '-f', 'x', ']'],
      ['[[', '-n', '$y', ']]'],
    ]);
    expect(words('export A=1 B="x y"; X=2')).toEqual([['export', 'A=1', 'B=x y'], ['X=2']]);
    expect(texts('((i++))')).toEqual(['((i++))']);
  });
});

describe('quote removal and unescaping', () => {
  it('removes double and single quotes', () => {
    expect(words(`"sudo" 'ls' "a b"`)).toEqual([['sudo', 'ls', 'a b']]);
  });

  it('removes backslash escapes outside quotes', () => {
    expect(words('s\\udo l\\s a\\ b')).toEqual([['sudo', 'ls', 'a b']]);
  });

  it('keeps only the escapes double quotes honour', () => {
    expect(words('echo "a\\"b\\$c\\\\d\\n"')).toEqual([['echo', 'a"b$c\\d\\n']]);
  });

  it("decodes $'…' strings, including an escaped quote", () => {
    expect(words("echo $'a\\'b' $'x\\ty' $'\\x41\\101'")).toEqual([['echo', "a'b", 'x\ty', 'AA']]);
  });

  it('joins adjacent quoted pieces into one word', () => {
    expect(words(`"su"'do' ls`)).toEqual([['sudo', 'ls']]);
    // `$"…"` is bash's translated string: the `$` is a prefix, not part of the value.
    expect(words('echo $"hi"')).toEqual([['echo', 'hi']]);
    expect(words('"su"$"do" ls')).toEqual([['sudo', 'ls']]);
  });

  it('joins line continuations, also inside a word', () => {
    expect(words('r\\\nm -rf x \\\n  y')).toEqual([['rm', '-rf', 'x', 'y']]);
  });

  it('keeps a backslash-newline inside single quotes', () => {
    expect(words("echo 'a\\\nb'")).toEqual([['echo', 'a\\\nb']]);
  });

  it('keeps expansions as written and marks a dynamic command name', () => {
    const [sub, cmd] = parseLine('$(echo rm) -rf "$HOME"').parts;
    expect(sub!.text).toBe('echo rm');
    expect(cmd!.dynamicName).toBe(true);
    expect(cmd!.words).toEqual(['$(echo rm)', '-rf', '$HOME']);
    expect(parseLine('$CMD x').parts[0]!.dynamicName).toBe(true);
  });
});

describe('unparseable input fails closed', () => {
  it.each(['ls &&', "echo 'unterminated", 'echo )(', 'if true; then', 'cat <<EOF > out; ls\nbody\nEOF'])(
    'keeps %j as an unparsed part rated at least moderate',
    (line) => {
      const parsed = parseLine(line);
      expect(parsed.hadErrors).toBe(true);
      const unparsed = parsed.parts.filter((p) => p.unparsed);
      expect(unparsed.length).toBeGreaterThan(0);
      for (const p of unparsed) {
        expect(p.origin).toBe('unparsed');
        const v = classifyPart(p, { rules: [], cwd: '/tmp' });
        expect(levelRank(v.level)).toBeGreaterThanOrEqual(levelRank('moderate'));
        expect(v.reasons).toContain('could not be parsed; treated with caution');
        expect(v.knownSafe).toBe(false);
      }
    },
  );

  it('still rates what it can see inside unparsed text', () => {
    const p = parseLine('ls && (rm -rf ~/x').parts.find((x) => x.unparsed)!;
    expect(p.text).toContain('rm -rf ~/x');
    expect(classifyPart(p, { rules: [], cwd: '/tmp', home: '/home/u' }).level).toBe('dangerous');
  });

  it('yields no parts for an empty line or only comments', () => {
    expect(parseLine('').parts).toEqual([]);
    expect(parseLine('   # nothing').parts).toEqual([]);
  });

  it('throws a clear error before initParser — checked in a fresh module instance', async () => {
    vi.resetModules();
    const fresh = await import('../../src/gate/parse.js');
    expect(fresh.parserReady()).toBe(false);
    expect(() => fresh.parseLine('ls')).toThrow(/initParser/);
  });
});

describe('shellCommandString', () => {
  it('reads -c with combined and valued options', () => {
    expect(shellCommandString(['-c', 'x'])).toEqual({ kind: 'string', value: 'x' });
    expect(shellCommandString(['-ec', 'x'])).toEqual({ kind: 'string', value: 'x' });
    expect(shellCommandString(['-o', 'pipefail', '-c', 'x'])).toEqual({ kind: 'string', value: 'x' });
    expect(shellCommandString(['--norc', '-c', 'x', 'name'])).toEqual({ kind: 'string', value: 'x' });
    expect(shellCommandString(['-c', '--', 'x'])).toEqual({ kind: 'string', value: 'x' });
  });

  it('tells a script file from stdin', () => {
    expect(shellCommandString(['x.sh'])).toEqual({ kind: 'file' });
    expect(shellCommandString([])).toEqual({ kind: 'stdin' });
    expect(shellCommandString(['-s', 'arg'])).toEqual({ kind: 'stdin' });
    expect(shellCommandString(['-e'])).toEqual({ kind: 'stdin' });
  });
});

describe('robustness', () => {
  const alphabet = fc.constantFrom(
    ...'abc xyz-_./~*?=$'.split(''),
    "'", '"', '`', '\\', '(', ')', '{', '}', '[', ']', '<', '>', '|', '&', ';', '\n', '\t', '#', '!',
    '$(', '<(', '<<', 'EOF', '$\'', 'sh -c ', 'eval ', 'for ', 'do ', 'done', 'if ', 'fi', 'case ', 'esac',
    'é', '😀', '\u202e', '\u0000', '\u200b',
  );
  const line = fc.array(alphabet, { maxLength: 60 }).map((xs) => xs.join(''));

  it('never throws and every part has text and words (2,000 random lines)', () => {
    fc.assert(
      fc.property(fc.oneof(line, fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 40 })), (s) => {
        const parsed = parseLine(s);
        for (const p of parsed.parts) {
          expect(typeof p.text).toBe('string');
          expect(Array.isArray(p.words)).toBe(true);
          const v = classifyPart(p, { rules: [], cwd: '/tmp', home: '/home/u' });
          if (p.unparsed) expect(v.level).not.toBe('safe');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('handles very deep nesting without throwing', () => {
    const deep = '$('.repeat(3000) + 'ls' + ')'.repeat(3000);
    expect(() => parseLine(deep)).not.toThrow();
    const parens = '('.repeat(5000) + 'ls' + ')'.repeat(5000);
    expect(() => parseLine(parens)).not.toThrow();
  });
});
