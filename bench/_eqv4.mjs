import { readFileSync } from 'node:fs';
const load = async (dist) => {
  const { initParser } = await import(dist + '/src/gate/parse.js');
  const { analyzeLine, decisionFor } = await import(dist + '/src/gate/analyze.js');
  const { defaultConfig } = await import(dist + '/src/config/schema.js');
  await initParser(); const cfg = defaultConfig();
  return (l) => { const a = analyzeLine(l, cfg, '/tmp'); return JSON.stringify([decisionFor(a, 'moderate'), a]); };
};
const A = await load('/work/main/dist'); const B = await load('/tmp/eqv2/dist');
const corpus = readFileSync('/work/main/bench/corpus.txt', 'utf8').split('\n').filter(l => l && !l.startsWith('# '));
const frags = ['$(', ')', '`', "'", '"', '|', '||', '&&', ';', '\n', '<(', '>(', '$x', '${y}', '<<EOF\nbody $(id)\nEOF', '<<EOF\nx\nEOF\n', "<<'E'\nx\nE", '\\\n', '\\', '\\ ', '\\\\', '\t', '\r', '\r\n', '#', '# c', ' ', 'sh -c ', 'eval ', 'sudo ', 'rm -rf /', 'FOO=1 ', '> out', '2>&1', '{ ', ' }', '( ', ' )', 'if true; then ', '; fi', 'for i in a; do ', '; done', 'case x in a) ', ';; esac', '$((1+2))', '[[ -n x ]]', 'export A=$(b)', 'f() { ls; }', '!', '&', '<<-EOF\n\tx\n\tEOF', "$'a\\n'", '"a\nb"', '<<<', 'EOF'];
let seed = 7; const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
const lines = [];
for (let i = 0; i < 60000; i++) { let s = ''; const k = 1 + rnd(6); for (let j = 0; j < k; j++) s += rnd(3) ? frags[rnd(frags.length)] : corpus[rnd(corpus.length)]; lines.push(s); }
for (const l of corpus) for (const f of frags) lines.push(l + f, f + l);
let diff = 0;
for (const l of lines) { const a = A(l), b = B(l); if (a !== b) { diff++; if (diff < 6) console.log('DIFF', JSON.stringify(l), '\n A', a.slice(0, 400), '\n B', b.slice(0, 400)); } }
console.log('lines', lines.length, 'diffs', diff);
