import { initParser } from '../src/gate/parse.js';
import { analyzeLine } from '../src/gate/analyze.js';
import { defaultConfig } from '../src/config/schema.js';
import { ALL_SPEC_LINES } from '../test/gate/spec-vectors.js';
await initParser();
const cfg = defaultConfig();
for (let i = 0; i < 400; i++) for (const l of ALL_SPEC_LINES) analyzeLine(l, cfg, '/tmp');
