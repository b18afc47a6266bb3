// edit_file: the full gate (always at least moderate, per-path pattern `edit_file PATH`; src/gate/edit-consent.ts), only inside the sandbox's writable
// roots and never under $WISP_HOME, written atomically (temp file + rename) so a crash never leaves half a file.
import { existsSync, realpathSync } from 'node:fs';
import { readFile, rename, stat, writeFile, chmod, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, basename, join, resolve, sep } from 'node:path';
import { z } from 'zod';
import { editFileAnalysis } from '../gate/edit-consent.js';
import { shellQuote } from '../util/shell-quote.js';
import { shortId } from '../util/ids.js';
import { clearThroughGate } from './clear.js';
import type { ToolOutput, WispTool } from './types.js';

export const EDIT_MAX_BYTES = 1024 * 1024;

const schema = z.strictObject({
  path: z.string().min(1).max(4096).describe('File to write; relative paths resolve from where wisp was started'),
  mode: z.enum(['write', 'append', 'replace']).describe('write: replace the whole file; append: add to the end; replace: swap the one occurrence of find'),
  content: z.string().max(EDIT_MAX_BYTES).describe('The new text (for replace: what find becomes)'),
  find: z.string().min(1).max(EDIT_MAX_BYTES).optional().describe('With mode replace: text that occurs exactly once in the file'),
});

export const editFileTool: WispTool<typeof schema> = {
  name: 'edit_file',
  description:
    'Create or change a text file inside the project (the directory wisp was started in) or the temp dir. ' +
    'Every edit passes the gate and may need the operator\'s approval. Prefer replace with a unique find for small changes.',
  schema,
  limits: ['inside the launch directory, the temp dir and sandbox.writablePaths only', 'files up to 1 MiB', 'replace: find must occur exactly once'],
  example: 'Add a "## Licence" section to the end of README.md. Use edit_file with mode append.',
  async run(args, ctx): Promise<ToolOutput> {
    const path = resolve(ctx.launchDir, args.path);
    const where = checkWritable(path, ctx.launchDir, ctx.config.sandbox.writablePaths, ctx.paths.home);
    if (where) return { content: `error: edit refused: ${where}`, isError: true };
    if (args.mode === 'replace' && args.find === undefined) {
      return { content: 'error: mode replace needs find (text that occurs exactly once)', isError: true };
    }

    const line = `edit_file ${args.mode} ${shellQuote(path)}`;
    const decision = await clearThroughGate(ctx, {
      tool: 'edit_file',
      subject: `${args.mode} ${path}`,
      line,
      cwd: ctx.launchDir,
      analysis: editFileAnalysis(line, path, ctx.config, ctx.launchDir),
    });
    if (!decision.allowed) {
      return { content: `error: edit not approved: ${decision.reason}`, isError: true };
    }

    const created = !existsSync(path);
    let before = '';
    if (!created) {
      const info = await stat(path);
      if (!info.isFile()) return { content: `error: not a regular file: ${path}`, isError: true };
      if (info.size > EDIT_MAX_BYTES) return { content: `error: ${path} is larger than 1 MiB; edit_file will not rewrite it`, isError: true };
      before = await readFile(path, 'utf8');
    }
    let after: string;
    if (args.mode === 'write') after = args.content;
    else if (args.mode === 'append') after = before + args.content;
    else {
      const find = args.find!;
      const first = before.indexOf(find);
      if (first < 0) return { content: `error: find text not found in ${path}`, isError: true };
      if (before.indexOf(find, first + 1) >= 0) return { content: `error: find text occurs more than once in ${path}; include more context`, isError: true };
      after = before.slice(0, first) + args.content + before.slice(first + find.length);
    }
    const bytes = Buffer.byteLength(after);
    if (bytes > EDIT_MAX_BYTES) return { content: `error: the result would be larger than 1 MiB`, isError: true };

    await writeAtomically(path, after);
    ctx.audit.write('file.write', { path, mode: args.mode, created, bytes }, ctx.ctx);
    ctx.receipt.files.push({ path, mode: args.mode, created, bytes });
    return { content: `${created ? 'created' : 'updated'} ${path} (${bytes} bytes, mode ${args.mode})` };
  },
};

/** Why a path may not be written, or undefined when it may. Paths are compared after resolving links. */
export function checkWritable(path: string, launchDir: string, extra: readonly string[], wispHome: string): string | undefined {
  const real = realish(path);
  const inside = (root: string) => {
    const r = realish(root);
    return real === r || real.startsWith(r.endsWith(sep) ? r : r + sep);
  };
  if (inside(wispHome)) return `${path} is inside wisp's own state directory (${wispHome}), which the model may never change`;
  const roots = [launchDir, tmpdir(), ...extra];
  if (!roots.some(inside)) return `${path} is outside the writable roots (${roots.join(', ')})`;
  return undefined;
}

/** realpath of the longest existing prefix, so a path that does not exist yet is still judged by where it lands. */
function realish(p: string): string {
  let head = resolve(p);
  const rest: string[] = [];
  while (!existsSync(head)) {
    const parent = dirname(head);
    if (parent === head) break;
    rest.unshift(basename(head));
    head = parent;
  }
  try {
    head = realpathSync(head);
  } catch {
    /* keep the resolved path */
  }
  return rest.length ? join(head, ...rest) : head;
}

async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.wisp-${shortId()}`);
  let mode: number | undefined;
  try {
    mode = (await stat(path)).mode & 0o777;
  } catch {
    mode = undefined;
  }
  try {
    await writeFile(temp, text, { flag: 'wx', mode: mode ?? 0o644 });
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}
