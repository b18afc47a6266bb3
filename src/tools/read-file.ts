// read_file: cleared by the rules as if it were `cat PATH` (so credentials are asked about), then paged.
import { open, realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { analyzeLine } from '../gate/analyze.js';
import { shellQuote } from '../util/shell-quote.js';
import { clearThroughGate } from './clear.js';
import type { ToolOutput, WispTool } from './types.js';

export const READ_PAGE_BYTES = 4096;

const schema = z.strictObject({
  path: z.string().min(1).max(4096).describe('File to read; relative paths resolve from where wisp was started'),
  offset: z.number().int().min(1).optional().describe('First line to return, 1-based (default 1)'),
  limit: z.number().int().min(1).max(1000).optional().describe('Most lines to return (default 200)'),
});

export const readFileTool: WispTool<typeof schema> = {
  name: 'read_file',
  description:
    'Read a text file as numbered lines, one page at a time. A page ends with "[more: call again with offset N]" ' +
    'or "[end of file]". Reading credentials or secrets needs the operator\'s approval.',
  schema,
  limits: ['pages of at most 4 KiB', 'text files only (a NUL byte refuses the file)'],
  example: 'What does README.md say about installation? Use read_file.',
  async run(args, ctx): Promise<ToolOutput> {
    const path = resolve(ctx.launchDir, args.path);
    let real = path;
    try {
      real = await realpath(path);
      if (!(await stat(real)).isFile()) return { content: `error: not a file: ${path}`, isError: true };
    } catch {
      return { content: `error: no such file: ${path}`, isError: true };
    }
    // The gate sees both names, so a harmless-looking link to ~/.ssh/id_rsa is judged by where it points.
    const line = real === path ? `cat ${shellQuote(path)}` : `cat ${shellQuote(path)} ${shellQuote(real)}`;
    const decision = await clearThroughGate(ctx, {
      tool: 'read_file',
      subject: path,
      line,
      cwd: ctx.launchDir,
      analysis: analyzeLine(line, ctx.config, ctx.launchDir),
    });
    if (!decision.allowed) {
      return { content: `error: read not approved: ${decision.reason}`, isError: true };
    }
    return { content: await readPage(real, args.offset ?? 1, args.limit ?? 200) };
  },
};

/** Lines from `offset`, numbered, stopping at `limit` lines or 4 KiB, without reading the whole file into memory twice. */
export async function readPage(path: string, offset: number, limit: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const chunk = Buffer.alloc(65536);
    let carry = '';
    let lineNo = 0;
    let out = '';
    let taken = 0;
    let position = 0;
    // Adds one numbered line; false when the page is full. A single line longer than a page is cut, so the
    // model is never told to call again at the same offset forever.
    const push = (text: string): boolean => {
      lineNo++;
      if (lineNo < offset) return true;
      let entry = `${lineNo}\t${text}\n`;
      if (taken === 0 && Buffer.byteLength(entry) > READ_PAGE_BYTES) {
        entry = Buffer.from(entry).subarray(0, READ_PAGE_BYTES - 64).toString('utf8') + ' …[line cut at 4 KiB]\n';
      }
      if (taken >= limit || Buffer.byteLength(out + entry) > READ_PAGE_BYTES) return false;
      out += entry;
      taken++;
      return true;
    };
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const piece = chunk.subarray(0, bytesRead);
      if (piece.includes(0)) return `error: ${path} looks binary (it contains a NUL byte); read_file reads text only`;
      carry += piece.toString('utf8');
      const lines = carry.split('\n');
      carry = lines.pop() ?? '';
      for (const text of lines) {
        if (!push(text)) return out + `[more: call again with offset ${lineNo}]`;
      }
    }
    if (carry.length > 0 && !push(carry)) return out + `[more: call again with offset ${lineNo}]`;
    if (lineNo < offset && lineNo > 0) return `error: the file has only ${lineNo} lines`;
    return out + '[end of file]';
  } finally {
    await handle.close();
  }
}
