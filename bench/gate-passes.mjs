// Whole passes over bench/corpus.txt, for counting instructions under valgrind (bench/gate-instructions.sh):
// `node bench/gate-passes.mjs gate|raw N` decides every line N times (gate), or only parses it with the bare
// tree-sitter parser (raw, the baseline). Needs the build (dist/).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2];
const passes = Number(process.argv[3] ?? '10');
if ((mode !== 'gate' && mode !== 'raw') || !Number.isInteger(passes) || passes < 0) {
  console.error('usage: node bench/gate-passes.mjs gate|raw PASSES');
  process.exit(64);
}
const lines = readFileSync(join(ROOT, 'bench/corpus.txt'), 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('# '));
const dist = (rel) => import(pathToFileURL(join(ROOT, 'dist', rel)).href);
let one;
if (mode === 'gate') {
  const { initParser } = await dist('src/gate/parse.js');
  const { analyzeLine, decisionFor } = await dist('src/gate/analyze.js');
  const { defaultConfig } = await dist('src/config/schema.js');
  await initParser();
  const config = defaultConfig();
  one = (l) => decisionFor(analyzeLine(l, config, '/tmp', { home: '/home/person' }), config.approval.threshold).length;
} else {
  const require = createRequire(join(ROOT, 'package.json'));
  const { Parser, Language } = await import('web-tree-sitter');
  await Parser.init();
  const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  const raw = new Parser();
  raw.setLanguage(language);
  one = (l) => {
    const tree = raw.parse(l);
    const n = tree === null ? 0 : 1;
    tree?.delete();
    return n;
  };
}
let sum = 0;
for (let i = 0; i < passes; i++) for (const l of lines) sum += one(l);
console.log(`${mode} ${passes} passes of ${lines.length} lines (${sum})`);
