import { initParser, parseLine } from '../src/gate/parse.js';
import { analyzeLine } from '../src/gate/analyze.js';
import { defaultConfig } from '../src/config/schema.js';
import { ALL_SPEC_LINES } from '../test/gate/spec-vectors.js';
await initParser();
const cfg = defaultConfig();
for (let i = 0; i < 30; i++) for (const l of ALL_SPEC_LINES) analyzeLine(l, cfg, '/tmp');
const rows: [number, number, string][] = [];
for (const l of ALL_SPEC_LINES) {
  let t = performance.now(); for (let i = 0; i < 50; i++) parseLine(l); const p = (performance.now() - t) / 50;
  t = performance.now(); for (let i = 0; i < 50; i++) analyzeLine(l, cfg, '/tmp'); const a = (performance.now() - t) / 50;
  rows.push([a * 1000, p * 1000, l]);
}
rows.sort((x, y) => y[0] - x[0]);
for (const r of rows.slice(0, 20)) console.log(r[0].toFixed(0).padStart(7), r[1].toFixed(0).padStart(7), r[2]);
