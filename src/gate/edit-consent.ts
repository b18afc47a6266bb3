// What an edit_file call asks the person, and what their answer may cover (ADR 0015). An answer is per path: the
// pattern is `edit_file <path>`, the path the person saw. Edits to git's own files, wisp's config, package.json
// (its scripts run on `npm run`/`npm install`), files that tools run on their own (.envrc, .npmrc, hooks, mise: ADR 0096), and anything
// outside the project are asked every time, as the equivalent shell redirect is.
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Config } from '../config/schema.js';
import { analyzeLine, type LineAnalysis } from './analyze.js';
import { maxLevel } from '../core/levels.js';
import { shellQuote } from '../util/shell-quote.js';
import { requote } from './words.js';
import { PROTECTED_IN_ROOTS } from '../core/protected-paths.js';
import { runByToolsEntry } from '../core/protected-paths.js';

/** Why an edit of this path is asked every time, or undefined when a remembered answer may cover it. */
export function editAskedEveryTime(path: string, project: string): string | undefined {
  const rel = relative(resolve(project), resolve(path));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return 'edits a file outside the project';
  const parts = rel.split(sep);
  const name = basename(rel);
  if (parts.includes('.git')) return "edits git's own files (hooks, config)";
  if (/^\.wisprc/.test(name) || parts.includes('.wisp')) return "edits wisp's configuration";
  if (name === 'package.json') return 'edits package.json, whose scripts npm runs';
  if (name === '.envrc' || name === '.npmrc' || name === '.yarnrc.yml' || name === '.yarnrc') return 'edits a file that tools load and run on their own';
  // Hooks, tool and container settings, install scripts: what a commit, entering the folder or an install runs (ADR 0096).
  const posix = parts.join('/');
  const run = runByToolsEntry(posix);
  if (run !== undefined) return `edits a file that tools run as code on their own (${run})`;
  // Every file the sandbox keeps an approved command from writing (.claude/, .vscode/, .mcp.json, start-up files …):
  // the same list, so an edit_file answer for one never covers the next edit of it.
  const entry = PROTECTED_IN_ROOTS.find((e) => posix === e || posix.startsWith(e + '/'));
  if (entry !== undefined) return `edits a file that makes later programs run code (${entry})`;
  return undefined;
}

/** The gate's view of `edit_file <mode> <path>`: at least moderate, dangerous where reading the path would be. */
export function editFileAnalysis(line: string, path: string, config: Pick<Config, 'policy'>, project: string): LineAnalysis {
  // Judge the path as if it were read: credentials and secrets make the edit dangerous.
  const asRead = analyzeLine(`cat ${shellQuote(path)}`, config, project);
  const readLevel = asRead.parts[0]?.level ?? 'moderate';
  const level = maxLevel('moderate', readLevel === 'dangerous' ? 'dangerous' : 'moderate');
  const every = editAskedEveryTime(path, project);
  const reasons = ['edits a file', ...(every !== undefined ? [every] : []), ...(level === 'dangerous' ? (asRead.parts[0]?.reasons ?? []) : [])];
  const rel = relative(resolve(project), resolve(path));
  const shown = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? resolve(path) : rel;
  return {
    command: line,
    policy: 'allowed',
    parts: [
      {
        text: line,
        executable: 'edit_file',
        level,
        reasons,
        pattern: level === 'dangerous' ? line : `edit_file ${requote(shown)}`,
        knownSafe: false,
        ...(every !== undefined ? { askEveryTime: true } : {}),
      },
    ],
    level,
  };
}
