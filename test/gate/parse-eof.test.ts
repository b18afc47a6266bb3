// The parser reads a line as if it ended with a newline where that cannot change the result (ADR 0013: much faster
// for pipelines). These pin the cases where it must not: the newline would turn a trailing backslash into a line
// continuation, would end a heredoc, or the result has errors.
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parseLine } from '../../src/gate/parse.js';

beforeAll(async () => {
  await initParser();
});

const texts = (line: string): string[] => parseLine(line).parts.map((p) => p.text);

describe('the end of the line', () => {
  it('a long pipeline: every stage, its text without the added newline, the whole pipeline recorded', () => {
    const line = "git ls-files '*.ts' | xargs wc -l | sort -n | tail -20 | head -3";
    const parts = parseLine(line).parts;
    expect(parts.map((p) => p.text)).toEqual(["git ls-files '*.ts'", 'xargs wc -l', 'sort -n', 'tail -20', 'head -3']);
    expect(parts.map((p) => p.pipeStage)).toEqual([0, 1, 2, 3, 4]);
    expect(parts.every((p) => p.pipeline === line)).toBe(true);
    expect(parseLine(line).hadErrors).toBe(false);
  });

  it('a trailing backslash, also before blanks, does not become a line continuation', () => {
    for (const line of ['ls \\', 'ls \\ ', 'ls \\\t ', 'echo a\\']) {
      const parsed = parseLine(line);
      // Whatever the parser makes of it, the backslash is not silently dropped as a continuation would be.
      expect(parsed.parts.some((p) => p.unparsed === true || p.words.some((w) => w.includes('\\') || w.trim() === '')), line).toBe(true);
    }
    expect(texts('ls \\\\')).toEqual(['ls \\\\']); // an escaped backslash is a plain word
  });

  it('a line with an error is parsed as given: an unterminated quote stays unparsed, its text unchanged', () => {
    const parsed = parseLine("echo 'abc; rm -rf ~");
    expect(parsed.hadErrors).toBe(true);
    expect(parsed.parts.every((p) => !p.text.endsWith('\n'))).toBe(true);
  });

  it('a heredoc whose end marker is the last line keeps its body with the command', () => {
    const parts = parseLine('cat <<EOF > out\nhello\nEOF').parts;
    expect(parts.map((p) => p.text)).toEqual(['cat <<EOF > out']);
    expect(parts[0]!.redirects).toEqual(['<<EOF\nhello\nEOF', '> out']);
  });
});
