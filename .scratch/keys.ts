import { configKeys } from '../src/config/edit.ts';
for (const k of configKeys()) {
  if (k.section) { console.log(`SECTION ${k.key}`); continue; }
  const range = k.minimum !== undefined ? ` ${k.minimum}–${k.maximum}` : '';
  const type = k.type === 'enum' ? k.options!.join(' \\| ') : k.type + range;
  const def = k.default === undefined ? '(unset)' : k.key === 'policy.deny' ? '(the default deny list)' : '`' + JSON.stringify(k.default) + '`';
  console.log(`| \`${k.key}\` | ${type} | ${def} | ${k.description ?? ''} |`);
}
