// Nested-script rules: the bodies a command runs besides its own words — `sh -c '…'` and the other shells, `eval`,
// `trap`, code stored to run later (`git config alias.x '!CMD'`), `watch`, `ssh host CMD`, `find -exec`, a launcher verb's command (`uv run CMD`), a shell fed by a heredoc
// or here-string. Each body is parsed again (up to MAX_DEPTH) and its parts listed after the command's.
import type { SyntaxNode } from './tree.js';
import { shellOf } from '../../core/shells.js';
import { requote } from '../words.js';
import { resolveCommand } from '../wrappers.js';
import { namedCommand } from '../launch-verbs.js';
import { scheduledCommands, storedCode } from '../stored-code.js';
import { type Collector, type Ctx, MAX_DEPTH, makeCtx, newPart } from './context.js';
import { wordValue } from './word-value.js';
import { heredocBodyText, heredocQuoted, unescapeBackquoted } from './backticks.js';

/** ssh options that take a value: the first operand after them is the host, the rest the remote command. */
const SSH_VALUE_OPTIONS = 'BbcDEeFIiJLlmOoPpQRSWw';

/** The context of a body a command runs: one level deeper, its own origin, no inherited redirections. */
function nestedCtx(ctx: Ctx, origin: Ctx['origin'] = 'shell-c'): Ctx {
  return makeCtx(ctx.depth + 1, origin, undefined, [], undefined);
}

export function emitNestedScripts(c: Collector, words: readonly string[], redirects: readonly SyntaxNode[], ctx: Ctx): void {
  const resolved = resolveCommand(words);
  const exe = resolved.executable;
  const args = resolved.args;
  if (exe === 'eval') {
    if (args.length > 0) c.nested(args.join(' '), nestedCtx(ctx, 'eval'), c.parts);
    return;
  }
  // `npm pkg set scripts.x='CMD'`, `git config alias.x '!CMD'`: code stored to run later, read now (ADR 0100).
  for (const text of storedCode(exe, args)) c.nested(text, nestedCtx(ctx, 'stored'), c.parts);
  // `crontab - <<EOF`, `at now <<< CMD`: a scheduler's input is code stored to run later.
  if (exe === 'crontab' || exe === 'at' || exe === 'batch') {
    for (const input of inputTexts(c, redirects)) for (const text of scheduledCommands(exe, args, input) ?? []) c.nested(text, nestedCtx(ctx, 'stored'), c.parts);
  }
  // `watch CMD…` hands its words, joined, to `sh -c` (unless -x/--exec).
  const watchAt = resolved.wrappers.indexOf('watch');
  if (watchAt >= 0 && !resolved.words.some((w) => w === '-x' || w === '--exec')) {
    const start = resolved.layers[watchAt + 1];
    if (start !== undefined) c.nested(resolved.words.slice(start).join(' '), nestedCtx(ctx), c.parts);
    return;
  }
  // `trap 'CODE' SIGNAL…`: the code runs later, in this shell.
  if (exe === 'trap' && args.length >= 2 && !args[0]!.startsWith('-')) {
    c.nested(args[0]!, nestedCtx(ctx, 'eval'), c.parts);
    return;
  }
  // `ssh [opts] host CMD…`: the remote command is a shell line too (it runs elsewhere, but it still runs).
  if (exe === 'ssh') {
    let i = 0;
    for (; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--') {
        i++;
        break;
      }
      if (!a.startsWith('-')) break;
      const last = a[a.length - 1]!;
      if (a.length === 2 && SSH_VALUE_OPTIONS.includes(last)) i++;
    }
    if (i + 1 < args.length) c.nested(args.slice(i + 1).join(' '), nestedCtx(ctx), c.parts);
    return;
  }
  // `find … -exec CMD … ;|+`: the command runs once per file; it is a part of its own.
  if (exe === 'find') {
    for (let i = 0; i < args.length; i++) {
      if (!/^-(exec|execdir|ok|okdir)$/.test(args[i]!)) continue;
      let end = i + 1;
      while (end < args.length && args[end] !== ';' && args[end] !== '+') end++;
      const inner = args.slice(i + 1, end);
      if (inner.length > 0 && ctx.depth < MAX_DEPTH) {
        c.parts.push(newPart(inner.map(requote).join(' '), inner, undefined, [], 'shell-c', undefined, undefined, undefined, undefined, undefined));
        emitNestedScripts(c, inner, [], nestedCtx(ctx));
      }
      i = end;
    }
    return;
  }
  // `uv run CMD…`, `bundle exec CMD…`, `npx CMD…`: the command the verb runs is a part of its own, and so is a command
  // line given in an option (`npm exec -c 'CMD'`): an answer for `uv run pytest` must not cover `uv run rm -rf ~`
  // (ADR 0096).
  const named = namedCommand(exe, args);
  if (named !== undefined) {
    if (ctx.depth >= MAX_DEPTH) return;
    for (const line of named.lines) c.nested(line, nestedCtx(ctx), c.parts);
    const inner = args.slice(named.at);
    if (inner.length > 0) {
      c.parts.push(newPart(inner.map(requote).join(' '), inner, undefined, [], 'shell-c', undefined, undefined, undefined, undefined, undefined));
      emitNestedScripts(c, inner, [], nestedCtx(ctx));
    }
    return;
  }
  // `source /dev/stdin <<< CODE` and `. /dev/fd/0 <<EOF`: the builtin runs its input as a shell would (ADR 0092).
  const sourced = (exe === 'source' || exe === '.') && namesStdin(args[0]);
  const shell = sourced ? undefined : shellOf(exe, args);
  if (shell === undefined && !sourced) return;
  const script = shell === undefined ? ({ kind: 'stdin' } as const) : shellCommandString(shell.args);
  if (script.kind === 'string') {
    c.nested(script.value, nestedCtx(ctx), c.parts);
    return;
  }
  if (script.kind === 'stdin') {
    const nested = nestedCtx(ctx);
    for (const text of inputTexts(c, redirects)) c.nested(text, nested, c.parts);
  }
}

/** The texts a command's heredocs and here-strings give it on its input. */
function inputTexts(c: Collector, redirects: readonly SyntaxNode[]): string[] {
  const out: string[] = [];
  for (const r of redirects) {
    if (r.type === 'heredoc_redirect') {
      const body = heredocBodyText(c, r);
      // An unquoted delimiter: the shell reads the body with bash's backslashes taken out (`\$'…'` is `$'…'`).
      if (body !== undefined) out.push(heredocQuoted(c, r) ? body : unescapeBackquoted(body));
    } else if (r.type === 'herestring_redirect') {
      const value = r.namedChildren[r.namedChildCount - 1];
      if (value) out.push(wordValue(c, value));
    }
  }
  return out;
}


/**
 * Reads a shell's arguments: with `-c` the first operand is the script text; without operands the shell reads its
 * script from stdin; otherwise it runs a script file.
 */
export function shellCommandString(args: readonly string[]): { kind: 'string'; value: string } | { kind: 'stdin' } | { kind: 'file' } | { kind: 'none' } {
  let cFlag = false;
  let sFlag = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--' || a === '-') {
      const operand = args[i + 1];
      if (cFlag) return operand === undefined ? { kind: 'none' } : { kind: 'string', value: operand };
      return operand === undefined || namesStdin(operand) ? { kind: 'stdin' } : { kind: 'file' };
    }
    if (a.startsWith('--')) {
      if (a === '--rcfile' || a === '--init-file') i++;
      continue;
    }
    if ((a.startsWith('-') || a.startsWith('+')) && a.length > 1) {
      const letters = a.slice(1);
      if (a.startsWith('-') && letters.includes('c')) cFlag = true;
      if (a.startsWith('-') && letters.includes('s')) sFlag = true;
      if (/[oO]$/.test(letters)) i++; // `-o pipefail`, `-O extglob`
      continue;
    }
    if (cFlag) return { kind: 'string', value: a };
    // A script operand that names the shell's own input (`bash /dev/stdin <<< CODE`) is read from stdin too.
    return sFlag || namesStdin(a) ? { kind: 'stdin' } : { kind: 'file' };
  }
  return cFlag ? { kind: 'none' } : { kind: 'stdin' };
}

/** A path that is the process's standard input: `/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0` (and a pid's). */
export function namesStdin(word: string | undefined): boolean {
  return word !== undefined && /^(?:\/dev\/stdin|\/dev\/fd\/0|\/proc\/(?:self|thread-self|\d+)\/fd\/0)$/.test(word);
}
