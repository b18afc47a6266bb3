import { initParser } from '../src/gate/parse.js';
import { analyzeLine } from '../src/gate/analyze.js';
import { defaultConfig } from '../src/config/schema.js';
import { ALL_SPEC_LINES } from '../test/gate/spec-vectors.js';
await initParser();
const cfg = defaultConfig();
const c0 = process.cpuUsage(); const t = performance.now();
for (let i = 0; i < 100; i++) for (const l of ALL_SPEC_LINES) analyzeLine(l, cfg, '/tmp');
const c = process.cpuUsage(c0); const n = 100 * ALL_SPEC_LINES.length; console.log("wall us/line", ((performance.now() - t) * 1000 / n).toFixed(0), "cpu us/line", ((c.user + c.system) / n).toFixed(0));
