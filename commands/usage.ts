// Usage errors, said the way wisp says its own errors: `wisp: …`, one hint that fits what was typed, exit 64.
// Also the guard that keeps a mistyped subcommand from becoming a model prompt (`wisp doctr` is not a question).
import { editDistance } from '../src/util/edit-distance.js';
import { shellWord } from '../src/util/shell-quote.js';

/** Words that are not subcommands but are accepted in the subcommand position. */
const ALSO_COMMANDS = ['help'];

/**
 * The subcommand `word` was probably meant to be, or undefined. A word of six letters or more may be two edits
 * away (`aprovls`), a shorter one only one (`doctr`, `mpc`); with more words after it (`wisp aprovals list`) only a
 * word of five letters or more at one edit counts, so a prompt such as `wisp what is here` (one edit from `chat`)
 * still reaches the model.
 */
export function nearestCommand(word: string, names: readonly string[], alone: boolean): string | undefined {
  const w = word.toLowerCase();
  if (!/^[a-z][a-z-]*$/.test(w) || w.length < 2) return undefined;
  const limit = alone ? (w.length >= 6 ? 2 : 1) : w.length >= 5 ? 1 : 0;
  let best: { name: string; d: number } | undefined;
  for (const name of [...names, ...ALSO_COMMANDS]) {
    if (name === w) return undefined;
    const d = editDistance(w, name);
    if (d <= limit && (best === undefined || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/** One word for a shell: left alone when it is plainly safe, single-quoted otherwise (src/util/shell-quote.ts). */
export { shellWord };

export function shellLine(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}

/** The refusal for `wisp doctr`: what was probably meant, and how to send the words as a prompt after all. */
export function typoMessage(typed: readonly string[], meant: string): string {
  return (
    `'${typed[0]}' is not a wisp command; did you mean \`wisp ${meant}\`? ` +
    `To send it to the model as a prompt: \`wisp -- ${shellLine(typed)}\``
  );
}

export interface UsageContext {
  /** The words as typed after `wisp`. */
  readonly argv: readonly string[];
  /** The subcommand that ran (`respond` when wisp supplied it). */
  readonly command: string | undefined;
  /** True when the words were a prompt with `respond` supplied by wisp (`wisp "PROMPT"`). */
  readonly implicitRespond: boolean;
  /** Every subcommand name (for the typo hint of an implicit respond). */
  readonly commands: readonly string[];
  /** The command as far as it was recognised (`config set`), for the help hint; default: `command`. */
  readonly path?: string;
}

/** Options of `wisp check` that take a value: the word after one is not where the command line starts. */
const CHECK_VALUE_OPTIONS = ['--cwd'];

/**
 * commander's error (`error: unknown option '-la'\n(Did you mean --all?)`) as one wisp line: the message, its
 * suggestion, and a hint for this command. Returned without the `wisp: ` prefix and without a line break.
 */
export function usageLine(code: string, commanderMessage: string, ctx: UsageContext): string {
  let text = commanderMessage.replace(/^error:\s*/, '').trim();
  const suggestion = /\n?\(Did you mean (.+?)\?\)\s*$/.exec(text);
  if (suggestion) text = text.slice(0, suggestion.index).trim();
  const parts = [text];
  if (suggestion) parts[0] += `; did you mean \`${suggestion[1]}\`?`;
  const sub = ctx.command;
  const path = ctx.path ?? sub;
  if (code === 'commander.unknownOption' && ctx.implicitRespond) {
    const meant = ctx.argv[0] !== undefined ? nearestCommand(ctx.argv[0], ctx.commands, true) : undefined;
    if (meant) parts.push(`did you mean \`wisp ${meant}\`?`);
    parts.push(`To send it to the model as a prompt: \`wisp -- ${shellLine(ctx.argv)}\``);
  } else if (code === 'commander.unknownOption' && sub === 'respond') {
    parts.push(`To send it to the model as a prompt: \`wisp respond -- ${shellLine(ctx.argv.slice(1))}\``);
  } else if (code === 'commander.unknownOption' && sub === 'check') {
    parts.push(`To check a command line that has options, put it after --: \`${checkLine(ctx.argv)}\``);
  } else if (path !== undefined && code === 'commander.unknownCommand') {
    parts.push(`(wisp ${path} --help lists its commands)`);
  } else if (path !== undefined) {
    parts.push(`(wisp ${path} --help for usage)`);
  } else {
    parts.push('(wisp --help for usage)');
  }
  // A sentence of its own after the message; a parenthesis right after it.
  return parts.reduce((line, part) => {
    if (part.startsWith('(')) return `${line} ${part}`;
    return `${line}${line.endsWith('?') ? ' ' : '. '}${part[0]!.toUpperCase()}${part.slice(1)}`;
  });
}

/** `wisp check --json ls -la` → `wisp check --json -- ls -la`: check's own flags first, the line after `--`. */
function checkLine(argv: readonly string[]): string {
  const words = argv.slice(1);
  let i = 0;
  const flags: string[] = [];
  while (i < words.length) {
    const w = words[i]!;
    if (w === '--') break;
    if (!w.startsWith('-') || !['--json', '--with-store', ...CHECK_VALUE_OPTIONS].includes(w.split('=')[0]!)) break;
    flags.push(w);
    if (CHECK_VALUE_OPTIONS.includes(w) && i + 1 < words.length) flags.push(words[++i]!);
    i++;
  }
  const line = words.slice(i).filter((w, j) => !(j === 0 && w === '--'));
  return shellLine(['wisp', 'check', ...flags, '--', ...line]);
}
