// The one list of shells (issue 18): every part of the gate that asks "is this program a shell?" asks here, so a
// shell the parser does not look into cannot be one the classifier or the deny list knows, or the other way round
// (`csh -c 'rm -rf ~'` was moderate while `bash -c` of the same was dangerous).

/** Programs that run a shell language and take a script with `-c STRING`, on stdin, or from a file. */
export const SHELLS: ReadonlySet<string> = new Set([
  'sh', 'bash', 'rbash', 'zsh', 'dash', 'ash', 'hush', 'posh', 'yash',
  'ksh', 'ksh93', 'mksh', 'pdksh', 'oksh', 'lksh',
  'csh', 'tcsh', 'fish', 'rc', 'es', 'elvish', 'nu', 'xonsh', 'ion', 'osh', 'ysh', 'oil',
]);

/** Multi-call programs whose first operand names the tool they become: `busybox sh -c …`, `toybox sh`. */
export const MULTI_CALL: ReadonlySet<string> = new Set(['busybox', 'toybox']);

export function isShell(program: string): boolean {
  return SHELLS.has(program);
}

/**
 * The shell a command runs, looking through a multi-call program: `sh` for `busybox sh -c …`, with the arguments
 * after it. Undefined when the command is no shell.
 */
export function shellOf(program: string, args: readonly string[]): { shell: string; args: readonly string[] } | undefined {
  if (SHELLS.has(program)) return { shell: program, args };
  if (MULTI_CALL.has(program) && args[0] !== undefined && SHELLS.has(args[0])) return { shell: args[0], args: args.slice(1) };
  return undefined;
}
