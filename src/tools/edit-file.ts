// edit_file: the full gate (always at least moderate, per-path pattern `edit_file PATH`; src/gate/edit-consent.ts), only
// inside the sandbox's writable roots and never under $WISP_HOME. It acts on what was shown (ADR 0043): judged by
// where a link points, the file's state taken before the person is asked and compared again at write time, the write
// made from the checked root down without following any link, atomically (temp file + rename).
import { createHash } from 'node:crypto';
import { lstat, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { editFileAnalysis } from '../gate/edit-consent.js';
import { canonicalPath } from '../gate/sandbox.js';
import { isInside } from '../sandbox/contain.js';
import { Dir, NoFollowError, sameObject, sameState, type Identity } from '../sandbox/no-follow.js';
import { shellQuote } from '../util/shell-quote.js';
import { shortId } from '../core/ids.js';
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
    if (args.mode === 'replace' && args.find === undefined) {
      return { content: 'error: mode replace needs find (text that occurs exactly once)', isError: true };
    }
    const refused = (why: string): ToolOutput => ({ content: `error: edit refused: ${why}`, isError: true });
    const resolved = await resolveTarget(path);
    if ('refusal' in resolved) return refused(resolved.refusal);
    const { target } = resolved;
    const place = writableRoot(target, ctx.launchDir, ctx.config.sandbox.writablePaths, ctx.paths.home);
    if ('refusal' in place) return refused(place.refusal);

    // The state the person is asked about; the edit is computed from it, before anyone is asked.
    let shown: Observed;
    try {
      shown = await observe(place.root, target);
    } catch (err) {
      if (err instanceof NoFollowError || err instanceof EditError) return refused(err.message);
      throw err;
    }
    await shown.dir.close();
    const created = shown.file === undefined;
    const computed = applyEdit(shown.file?.text ?? '', args, path);
    if ('error' in computed) return { content: `error: ${computed.error}`, isError: true };
    const after = computed.text;

    const project = canonicalPath(ctx.launchDir);
    const viaLink = relative(project, target) !== relative(resolve(ctx.launchDir), path);
    const line = `edit_file ${args.mode} ${shellQuote(path)}${viaLink ? ` ${shellQuote(target)}` : ''}`;
    const decision = await clearThroughGate(ctx, {
      tool: 'edit_file',
      subject: `${args.mode} ${path}${viaLink ? ` -> ${target}` : ''}`,
      line,
      cwd: ctx.launchDir,
      analysis: editFileAnalysis(line, target, ctx.config, project),
    });
    if (!decision.allowed) {
      return { content: `error: edit not approved: ${decision.reason}`, isError: true };
    }

    // Resolve again and compare with what was shown; write only what the person was asked about.
    let now: Observed;
    try {
      now = await observe(place.root, target);
    } catch (err) {
      if (err instanceof NoFollowError || err instanceof EditError) return refused(`${err.message}; nothing was written`);
      throw err;
    }
    try {
      const change = changedSince(shown, now);
      if (change) return refused(`${path} changed since it was shown for approval (${change}); nothing was written. Read it again and redo the edit.`);
      const mode = now.file?.id.mode ?? 0o644;
      await now.dir.commit(basename(target), `.${basename(target)}.wisp-${shortId()}`, after, mode & 0o777, now.file?.id);
    } catch (err) {
      if (err instanceof NoFollowError) return refused(`${err.message}; nothing was written`);
      throw err;
    } finally {
      await now.dir.close();
    }
    const bytes = Buffer.byteLength(after);
    ctx.audit.write('file.write', { path, ...(viaLink ? { target } : {}), mode: args.mode, created, bytes }, ctx.ctx);
    ctx.receipt.files.push({ path, mode: args.mode, created, bytes });
    return { content: `${created ? 'created' : 'updated'} ${path} (${bytes} bytes, mode ${args.mode})` };
  },
};

class EditError extends Error {}

/** Where a write to `path` lands: a link's target; refused when a link dangles or the directory is missing. */
export async function resolveTarget(path: string): Promise<{ target: string } | { refusal: string }> {
  const here = await lstat(path).catch(() => undefined);
  if (here) {
    try {
      return { target: await realpath(path) };
    } catch {
      return { refusal: `${path} is a link to something that does not exist; edit_file does not write through a dangling link` };
    }
  }
  try {
    return { target: join(await realpath(dirname(path)), basename(path)) };
  } catch {
    return { refusal: `the directory ${dirname(path)} does not exist (edit_file does not create directories)` };
  }
}

/** The writable root that holds `target` (canonical), or why it may not be written. */
export function writableRoot(target: string, launchDir: string, extra: readonly string[], wispHome: string): { root: string } | { refusal: string } {
  if (isInside(target, canonicalPath(wispHome))) {
    return { refusal: `${target} is inside wisp's own state directory (${wispHome}), which the model may never change` };
  }
  const roots = [launchDir, tmpdir(), ...extra];
  const holding = roots.map((r) => canonicalPath(r)).filter((r) => isInside(target, r) && r !== target);
  if (holding.length === 0) return { refusal: `${target} is outside the writable roots (${roots.join(', ')})` };
  // The deepest root: the fewest components walked without following links.
  return { root: holding.sort((a, b) => b.length - a.length)[0]! };
}

interface Observed {
  readonly dir: Dir;
  readonly file?: { readonly id: Identity; readonly text: string; readonly sha256: string };
}

/** The directory and the file at `target`, reached from `root` without following a link, read whole. */
async function observe(root: string, target: string): Promise<Observed> {
  const dir = await Dir.open(root, dirname(target));
  try {
    const opened = await dir.openFile(basename(target));
    if (!opened) return { dir };
    try {
      const { id } = opened;
      if (id.nlink > 1n) {
        throw new EditError(`${target} has ${id.nlink} names (hard links), and another may be outside the project; edit_file changes only a file with one name`);
      }
      if (id.size > BigInt(EDIT_MAX_BYTES)) throw new EditError(`${target} is larger than 1 MiB; edit_file will not rewrite it`);
      const bytes = await opened.handle.readFile();
      return { dir, file: { id, text: bytes.toString('utf8'), sha256: createHash('sha256').update(bytes).digest('hex') } };
    } finally {
      await opened.handle.close();
    }
  } catch (err) {
    await dir.close();
    throw err;
  }
}

/** How the thing at the target differs from what was shown, or undefined when it is the same. */
function changedSince(shown: Observed, now: Observed): string | undefined {
  if (!sameObject(shown.dir.id, now.dir.id)) return 'its directory was replaced';
  if (!shown.file && now.file) return 'a file appeared at that name';
  if (shown.file && !now.file) return 'the file was removed';
  if (shown.file && now.file) {
    if (!sameObject(shown.file.id, now.file.id)) return 'another file took its name';
    if (shown.file.sha256 !== now.file.sha256 || !sameState(shown.file.id, now.file.id)) return 'its content was changed';
  }
  return undefined;
}

function applyEdit(before: string, args: { mode: 'write' | 'append' | 'replace'; content: string; find?: string | undefined }, path: string): { text: string } | { error: string } {
  let after: string;
  if (args.mode === 'write') after = args.content;
  else if (args.mode === 'append') after = before + args.content;
  else {
    const find = args.find!;
    const first = before.indexOf(find);
    if (first < 0) return { error: `find text not found in ${path}` };
    if (before.indexOf(find, first + 1) >= 0) return { error: `find text occurs more than once in ${path}; include more context` };
    after = before.slice(0, first) + args.content + before.slice(first + find.length);
  }
  if (Buffer.byteLength(after) > EDIT_MAX_BYTES) return { error: 'the result would be larger than 1 MiB' };
  return { text: after };
}
