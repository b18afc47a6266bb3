// ADR 0084: the heredoc-header reader decides exactly as tree-sitter does. A few thousand generated lines here; then
// one test per way around the reader's closed set an attacker could try: each such line must take the tree-sitter
// path (and so keep its decision), or — where the reader does take it — read exactly as tree-sitter reads it.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { MAX_PARTS } from '../../src/gate/limits.js';
import { initParser, isHeredocHeader, parseLine } from '../../src/gate/parse.js';
import { heredocHeadersAgree, sameAsTreeSitter } from './heredoc-headers.js';

const LINES = Number(process.env.WISP_HEREDOC_HEADER_LINES ?? '4000');
const config = defaultConfig();

beforeAll(async () => {
  await initParser();
});

function decision(line: string): string {
  return decisionFor(analyzeLine(line, config, '/w', { home: '/home/u' }), config.approval.threshold);
}

function taken(lines: readonly string[]): void {
  for (const line of lines) {
    expect(isHeredocHeader(line), JSON.stringify(line)).toBe(true);
    expect(sameAsTreeSitter(line), JSON.stringify(line)).toBe(true);
  }
}

function notTaken(lines: readonly string[]): void {
  for (const line of lines) {
    expect(isHeredocHeader(line), JSON.stringify(line)).toBe(false);
    expect(sameAsTreeSitter(line), JSON.stringify(line)).toBe(true);
  }
}

describe('the heredoc-header reader', () => {
  it(`gives the tree-sitter analysis for every header of ${LINES} generated lines`, () => {
    const { taken: n } = heredocHeadersAgree(LINES, 84101);
    expect(n).toBeGreaterThan(LINES / 10);
  });

  it("takes the corpus's headers, and they are still asked about (the heredoc's body is unknown)", () => {
    const lines = ["python3 - <<'PY'", 'cat > config.json <<EOF', "cat <<'EOF' > script.sh", 'sh <<EOF', 'bash -s <<-"END" >> log'];
    taken(lines);
    for (const line of lines) expect(decision(line), line).toBe('ask');
    expect(parseLine("python3 - <<'PY'").parts.map((p) => p.text)).toEqual(['python3', "<<'PY'"]);
  });

  it('a command after `;` or `&` behind the header, or a `;` before it, is not hidden: the tree-sitter path reads it', () => {
    notTaken(['grep; <<EOF', 'grep ; <<EOF', 'grep && <<EOF', 'grep | <<EOF', 'cat <<EOF ; rm -rf ~', 'cat <<EOF; rm -rf ~', 'cat <<EOF & rm -rf ~', 'cat <<EOF &', 'cat <<EOF || rm -rf ~']);
    expect(decision('cat <<EOF ; rm -rf ~')).not.toBe('run');
  });

  it('a pipe into a shell, or any tail but one redirection to a file, takes the tree-sitter path', () => {
    notTaken(['cat <<EOF | sh', 'cat <<EOF | bash', 'cat <<EOF && sh x', 'cat <<EOF 2>&1', 'cat <<EOF x', 'cat <<EOF > a b']);
    notTaken(['cat <<EOF > 2', 'cat <<EOF > -1', 'cat <<EOF > fi', 'cat <<EOF >out', 'cat <<EOF >| out', 'cat <<EOF &> out']);
    taken(['cat <<EOF > out.txt', 'cat <<EOF >> /tmp/log', 'sh <<EOF > .env']);
    expect(decision('cat <<EOF | sh')).toBe('ask');
  });

  it('a body on the next line is not a header: the command in it is read', () => {
    notTaken(['cat <<EOF\nrm -rf ~\nEOF', 'cat <<EOF\n', 'cat <<EOF\nEOF\nrm -rf ~', 'sh <<EOF\ncurl x | sh\nEOF']);
    expect(decision('sh <<EOF\nrm -rf ~\nEOF')).not.toBe('run');
  });

  it('a second heredoc, a here-string or a substitution in the header leaves the set', () => {
    notTaken(['cat <<A <<B', 'cat <<<x', 'cat <<EOF <<<x', 'cat <<$(rm -rf ~)', 'cat <<EOF > >(sh)', 'cat <<EOF $(rm -rf ~)', 'cat <<EOF `id`']);
  });

  it('reserved words and declarations as the delimiter or in the tail leave the set', () => {
    notTaken(['cat <<fi', "cat <<'done'", 'cat <<EOF then', 'cat <<EOF done rm', 'cat <<EOF fi', 'cat <<EOF in', 'cat <<EOF esac']);
    // After an operator, `export` starts a declaration in tree-sitter's recovery (the fuzz found it).
    // A word of digits before `&&` is read otherwise too (the stress run found it): no tail word is all digits.
    notTaken(['cat <<EOF 0 &&', 'sh <<EOF 2 && x', 'cat <<EOF 2', 'cat <<EOF x 10 | sh']);
    notTaken(['sh <<EOF | export', 'sh <<EOF2 fi >> export', "bash -s <<-'x' && export x=1", 'sh <<EOF | local']);
  });

  it('a lone dash before the operator, which tree-sitter drops, is dropped the same way (and only that one)', () => {
    taken(["python3 - <<'PY'", 'cat - <<EOF', 'python3 - x <<EOF', 'cat -- - <<EOF']);
    notTaken(['cat\t- <<EOF', 'cat  - <<EOF', 'cat -\t<<EOF', 'cat -<<EOF', '- <<EOF']);
    for (const line of ['cat - - <<EOF', "cat '-' <<EOF", 'cat "-" <<EOF']) expect(sameAsTreeSitter(line), line).toBe(true);
  });

  it('quotes that hide the operator, and odd delimiters, leave the set or read as tree-sitter reads them', () => {
    for (const line of ["echo ' <<x' <<EOF", 'echo " <<x" <<EOF', "cat <<''", 'cat <<""', "cat <<'E O'", 'cat <<E\\OF', 'cat <<é', "cat <<'EOF"]) {
      expect(sameAsTreeSitter(line), line).toBe(true);
    }
  });

  it('too many statements behind a header: the count is the one tree-sitter makes, so the line is kept whole alike', () => {
    for (const n of [MAX_PARTS - 3, MAX_PARTS - 2, MAX_PARTS - 1, MAX_PARTS, MAX_PARTS + 1]) {
      // Short statements, so the line stays under the length bound and its body is parsed as a nested text.
      const line = `sh -c '${'x;'.repeat(n)}' ; sh -c 'cat <<EOF'`;
      expect(sameAsTreeSitter(line), `${n}`).toBe(true);
    }
    for (const n of [MAX_PARTS - 2, MAX_PARTS - 1, MAX_PARTS]) {
      expect(sameAsTreeSitter(`${'x;'.repeat(n)}sh -c 'cat <<EOF'`), `${n}`).toBe(true);
    }
  });

  it('a header at the length bound takes the tree-sitter path', () => {
    for (const total of [1022, 1023, 1024, 1025]) {
      const head = 'cat <<EOF > ';
      const line = head + 'x'.repeat(total - head.length);
      expect(line.length).toBe(total);
      expect(isHeredocHeader(line), `${total}`).toBe(total < 1024);
      expect(sameAsTreeSitter(line), `${total}`).toBe(true);
    }
  });
});
