#!/usr/bin/env node
// The ES-module path to the same entry: `node dist/bin/wisp.js` (the tests, links made before ADR 0055) runs
// dist/bin/wisp.cjs, the package's bin, which does all the work.
import './wisp.cjs';
