// `--version` / `--help` forms: the classifier skips its rule families for these (they print and exit). Whether a
// part runs unasked is decided by the table (src/gate/table/), never here.
import type { CmdView } from './rules-common.js';

/** Multiplexers whose `version`/`help` subcommand is built in (not a project script or make target). */
const BUILTIN_VERSION_SUB = new Set(['git', 'go', 'docker', 'podman', 'kubectl', 'npm', 'pnpm', 'cargo', 'brew', 'pip', 'pip3', 'gh', 'swift', 'rustup', 'terraform', 'helm', 'uv', 'deno', 'bun']);

/** Tools whose `-v` means "print the version" (elsewhere it often means verbose, or something else entirely). */
const DASH_V_VERSION = new Set(['node', 'nodejs', 'npm', 'npx', 'pnpm', 'yarn', 'bun', 'deno', 'tsc', 'docker', 'podman', 'ruby', 'gcc', 'g++', 'clang', 'clang++', 'php', 'lua']);
/** Tools whose version flag is `-version` (one dash). */
const DASH_VERSION = new Set(['java', 'javac', 'xcodebuild', 'ffmpeg', 'ffprobe', 'openssl']);

/** `<tool> --version` / `--help` (and `version`/`help` for tools where that is built in). */
export function isVersionOrHelp(c: CmdView): boolean {
  if (c.args.length !== 1 || c.r.programWord === undefined || c.r.programWord.includes('/')) return false;
  const a = c.args[0]!;
  if (a === '--version' || a === '-V' || a === '--help') return true;
  if (a === '-v' && DASH_V_VERSION.has(c.exe)) return true;
  if (a === '-version' && DASH_VERSION.has(c.exe)) return true;
  return (a === 'version' || a === 'help') && BUILTIN_VERSION_SUB.has(c.exe);
}
