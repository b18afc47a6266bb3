// The body of `wisp tools`. The catalogue comes pre-generated from src/tools/registry.ts (a test keeps it in step),
// so this command starts without loading zod or the tools themselves.
import { quietOnClosedPipe, renderTable } from './output.js';
import { CATALOGUE, CATALOGUE_MARKDOWN } from './tools-catalogue.generated.js';

export function printTools(format: 'json' | 'markdown' | 'table'): void {
  quietOnClosedPipe();
  if (format === 'json') {
    process.stdout.write(JSON.stringify(CATALOGUE, null, 2) + '\n');
    return;
  }
  if (format === 'markdown') {
    const md = CATALOGUE_MARKDOWN;
    process.stdout.write(md.endsWith('\n') ? md : md + '\n');
    return;
  }
  const tty = process.stdout.isTTY === true;
  const rows = CATALOGUE.tools.map((t) => {
    const props = Object.keys((t.inputSchema.properties ?? {}) as Record<string, unknown>);
    const required = new Set((t.inputSchema.required ?? []) as string[]);
    const args = props.map((p) => (required.has(p) ? p : `${p}?`)).join(', ');
    return [t.name, args, tty ? firstSentence(t.description) : t.description];
  });
  process.stdout.write(renderTable(['TOOL', 'ARGUMENTS', 'DESCRIPTION'], rows, { tty }));
}

function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const m = /^(.{20,}?[.;])\s/.exec(flat);
  const s = m ? (m[1] as string) : flat;
  return s.length > 100 ? `${s.slice(0, 99)}…` : s;
}
