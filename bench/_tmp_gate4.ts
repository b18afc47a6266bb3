import { initParser, parseLine } from '../src/gate/parse.js';
import { analyzeLine } from '../src/gate/analyze.js';
import { defaultConfig } from '../src/config/schema.js';
import { ALL_SPEC_LINES } from '../test/gate/spec-vectors.js';
import { createRequire } from 'node:module';
import { Parser, Language } from 'web-tree-sitter';
await initParser();
const require = createRequire(import.meta.url);
const lang = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
const p = new Parser(); p.setLanguage(lang);
const cfg = defaultConfig();
const L = ALL_SPEC_LINES; const N = 100;
function m(name: string, f: (l: string) => void) {
  for (let i = 0; i < 10; i++) for (const l of L) f(l);
  const c0 = process.cpuUsage(); const t = performance.now();
  for (let i = 0; i < N; i++) for (const l of L) f(l);
  const c = process.cpuUsage(c0); const n = N * L.length;
  console.log(name.padEnd(10), 'wall', ((performance.now() - t) * 1000 / n).toFixed(1), 'cpu', ((c.user + c.system) / n).toFixed(1), 'us/line');
}
for (let k = 0; k < 2; k++) {
m('raw', (l) => p.parse(l)!.delete());
m('parseLine', (l) => parseLine(l));
m('analyze', (l) => analyzeLine(l, cfg, '/tmp'));
}
