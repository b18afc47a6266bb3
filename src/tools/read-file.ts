// read_file: cleared by the rules as if it were `cat PATH` (so credentials are asked about), then paged.
import { lstatSync } from 'node:fs';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, parse, relative, resolve } from 'node:path';
import { z } from 'zod';
import { analyzeLine, type LineAnalysis } from '../gate/analyze.js';
import { canonicalPath } from '../gate/sandbox.js';
import { maxLevel } from '../core/levels.js';
import { isInside } from '../sandbox/contain.js';
import { Dir, NoFollowError } from '../sandbox/no-follow.js';
import { inSecretFolder, isSecretPath } from '../sandbox/secrets.js';
import { withCredentialsHidden } from './hide.js';
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
  limits: ['pages of at most 4 KiB', 'text files only (a NUL byte refuses the file)', 'looks at the first 256 MiB of a file only'],
  example: 'What does README.md say about installation? Use read_file.',
  async run(args, ctx): Promise<ToolOutput> {
    const path = resolve(ctx.launchDir, args.path);
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      return { content: `error: no such file: ${path}`, isError: true };
    }
    // Opened now, from / down without following a link (ADR 0043), and read later through this very handle: what is
    // read is the file that was judged, whatever is renamed or linked in while the person is asked.
    let opened: Awaited<ReturnType<typeof openNoFollow>>;
    try {
      opened = await openNoFollow(real);
    } catch (err) {
      if (err instanceof NoFollowError) return { content: `error: ${err.message}`, isError: true };
      throw err;
    }
    if (!opened) return { content: `error: no such file: ${path}`, isError: true };
    try {
      // The gate sees both names, so a harmless-looking link to ~/.ssh/id_rsa is judged by where it points.
      const line = real === path ? `cat ${shellQuote(path)}` : `cat ${shellQuote(path)} ${shellQuote(real)}`;
      const concerns = readConcerns(path, real, ctx.launchDir, ctx.paths.home);
      if (opened.id.nlink > 1n) concerns.push(HARD_LINKED);
      const analysis = withReadRules(analyzeLine(line, ctx.config, ctx.launchDir), concerns);
      const decision = await clearThroughGate(ctx, { tool: 'read_file', subject: path, line, cwd: ctx.launchDir, analysis });
      if (!decision.allowed) {
        return { content: `error: read not approved: ${decision.reason}`, isError: true };
      }
      const page = await readPage(opened.handle, args.offset ?? 1, args.limit ?? 200, path);
      // Read unasked: recognisable credentials in an ordinary-looking file are hidden from the model (ADR 0096).
      return { content: decision.unasked ? withCredentialsHidden(page) : page };
    } finally {
      await opened.handle.close();
    }
  },
};

/** A file with several names may have one outside the project or one that marks a secret: its content is asked. */
export const HARD_LINKED = 'the file has other names (hard links), which may be outside the project';

/** Opens the canonical path `real` as a regular file, from / down, following no link. */
async function openNoFollow(real: string): Promise<Awaited<ReturnType<Dir['openFile']>>> {
  const dir = await Dir.open(parse(real).root, dirname(real));
  try {
    return await dir.openFile(basename(real));
  } finally {
    await dir.close();
  }
}

/**
 * read_file runs in wisp's own process, outside the sandbox, so the containment's rules are checks here: a read
 * runs unasked only inside the project, and not for a secret-named file or anything of wisp's own.
 */
export function readConcerns(path: string, real: string, launchDir: string, wispHomeDir: string): string[] {
  const project = canonicalPath(launchDir);
  const reasons: string[] = [];
  if (isInside(real, canonicalPath(wispHomeDir))) reasons.push("reads wisp's own state (audit log, approvals, config)");
  if (!isInside(real, project)) reasons.push(real === path ? 'reads outside the project' : 'the link points outside the project');
  // Names inside the project are judged from the project down (a project kept under ~/.config is not a secret).
  const names = [real, path].map((p) => (isInside(p, project) ? relative(project, p) : p));
  if (names.some((n) => isSecretPath(n))) reasons.push('reads a file whose name marks a secret');
  // A folder named like a secret (`.env/prod`, `secrets/`, `credentials/`): the containment hides it whole (ADR 0101).
  else if (names.some((n) => inSecretFolder(n))) reasons.push('reads a file in a folder whose name marks a secret');
  if (isGitConfig(real)) reasons.push(GIT_CONFIG);
  return reasons;
}

/** A contained run sees a git config without credentials (ADR 0098); read_file shows it whole, so it asks. */
export const GIT_CONFIG = "reads a repository's git config, which may hold credentials (a token in a remote URL, an http header)";

/** `config` or `config.worktree` in a git directory (one holding HEAD and objects or a commondir), wherever it is. */
function isGitConfig(real: string): boolean {
  const name = basename(real);
  if (name !== 'config' && name !== 'config.worktree') return false;
  const dir = dirname(real);
  const kind = (p: string): 'file' | 'dir' | undefined => {
    try {
      const s = lstatSync(p);
      return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : undefined;
    } catch {
      return undefined;
    }
  };
  return kind(join(dir, 'HEAD')) === 'file' && (kind(join(dir, 'objects')) === 'dir' || kind(join(dir, 'commondir')) === 'file');
}

/** Raises every part to at least moderate with the reasons; a raised read is remembered only for this exact text. */
function withReadRules(analysis: LineAnalysis, concerns: readonly string[]): LineAnalysis {
  if (concerns.length === 0) return analysis;
  const parts = analysis.parts.map((p) => ({
    ...p,
    level: maxLevel(p.level, 'moderate'),
    reasons: [...p.reasons, ...concerns],
    pattern: p.level === 'dangerous' ? p.pattern : analysis.command,
    knownSafe: false,
  }));
  return { ...analysis, parts, level: parts.reduce((l, p) => maxLevel(l, p.level), analysis.level) };
}

/** How far into a file read_file scans for the lines asked for. */
export const READ_SCAN_BYTES = 256 * 1024 * 1024;

/** How much of one line is kept: a line longer than a page is cut anyway, so the rest is never held in memory. */
const LINE_KEEP_BYTES = READ_PAGE_BYTES * 2;

/**
 * Lines from `offset`, numbered, stopping at `limit` lines or 4 KiB. Linear in the file's size whatever its shape:
 * bytes are scanned for newlines once, lines before `offset` are not kept, and of a long line only its head is.
 */
export async function readPage(
  source: string | FileHandle,
  offset: number,
  limit: number,
  path = String(source),
  maxScan = READ_SCAN_BYTES,
): Promise<string> {
  const handle = typeof source === 'string' ? await open(source, 'r') : source;
  try {
    const chunk = Buffer.alloc(65536);
    let lineNo = 0;
    let out = '';
    let taken = 0;
    let position = 0;
    let head: Buffer[] = [];
    let headBytes = 0;
    let pending = false; // bytes of a line not yet ended by a newline
    // Adds one numbered line; false when the page is full. A single line longer than a page is cut, so the
    // model is never told to call again at the same offset forever.
    const push = (): boolean => {
      lineNo++;
      const bytes = Buffer.concat(head, headBytes);
      head = [];
      headBytes = 0;
      pending = false;
      if (lineNo < offset) return true;
      let entry = `${lineNo}\t${bytes.toString('utf8')}\n`;
      if (taken === 0 && Buffer.byteLength(entry) > READ_PAGE_BYTES) {
        entry = Buffer.from(entry).subarray(0, READ_PAGE_BYTES - 64).toString('utf8') + ' …[line cut at 4 KiB]\n';
      }
      if (taken >= limit || Buffer.byteLength(out) + Buffer.byteLength(entry) > READ_PAGE_BYTES) return false;
      out += entry;
      taken++;
      return true;
    };
    const keep = (piece: Buffer): void => {
      pending = true;
      if (lineNo + 1 < offset || headBytes >= LINE_KEEP_BYTES) return;
      const part = piece.subarray(0, LINE_KEEP_BYTES - headBytes);
      head.push(Buffer.from(part));
      headBytes += part.length;
    };
    for (;;) {
      // A file of many gigabytes with no newline (or an offset deep in it) kept the call busy for minutes: stop
      // with words the model can act on (ADR 0101).
      if (position >= maxScan) {
        // The line under way, if it is the first asked for, is shown cut, as it would be at the end of the file.
        if (pending && taken === 0 && lineNo + 1 >= offset) push();
        return `${out}[stopped: read_file looks at most at the first ${Math.round(maxScan / 1024 / 1024)} MiB of a file, and the lines asked for lie past it or the line is longer; read further with a command (tail, sed -n)]`;
      }
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const piece = chunk.subarray(0, bytesRead);
      if (piece.includes(0)) return `error: ${path} looks binary (it contains a NUL byte); read_file reads text only`;
      let start = 0;
      for (;;) {
        const nl = piece.indexOf(10, start);
        if (nl < 0) {
          if (start < piece.length) keep(piece.subarray(start));
          break;
        }
        keep(piece.subarray(start, nl));
        if (!push()) return out + `[more: call again with offset ${lineNo}]`;
        start = nl + 1;
      }
    }
    if (pending && !push()) return out + `[more: call again with offset ${lineNo}]`;
    if (lineNo < offset && lineNo > 0) return `error: the file has only ${lineNo} lines`;
    return out + '[end of file]';
  } finally {
    if (typeof source === 'string') await handle.close();
  }
}
