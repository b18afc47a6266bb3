import { loadConfig } from '../src/config/load.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
const d = mkdtempSync('/tmp/x-');
writeFileSync(d + '/config.json', JSON.stringify({ $schema: './config.schema.json', approval: { threshold: 'safe' } }));
try { console.log(loadConfig({ home: d, cwd: d }).config.approval); } catch (e) { console.log('ERR', (e as Error).message); }
