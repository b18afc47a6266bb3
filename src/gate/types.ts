// Shared shapes of the gate: what the parser yields, what the classifier says, what the gate decides.

import type { Level } from '../core/levels.js';

export type WordShape = 'literal' | 'glob' | 'dynamic';

/** One simple command found in a line: a pipeline stage, a list member, a `$(…)` body, an `sh -c` body… */
export interface Part {
  /** The part's source text, exactly as it appears in the line (or the unquoted body of `sh -c '…'`/`eval`). */
  readonly text: string;
  /** The words after quote removal and unescaping (`s\udo` → `sudo`); wrappers and `VAR=x` still included. */
  readonly words: readonly string[];
  /**
   * How each of `words` was written, for simple commands the parser read (absent otherwise): `literal`, `glob`
   * (unquoted `*`/`?`/`[`) or `dynamic` (expansion, substitution, brace expansion). Only literal words can be safe.
   */
  readonly shapes?: readonly WordShape[];
  /** Redirections attached to this command, as source text (`> out.txt`, `2>&1`). */
  readonly redirects: readonly string[];
  /**
   * Why this part was split out: top level, a pipeline stage, a substitution, a shell -c body… `stored`: code a
   * command stores to run later (`npm pkg set scripts.x=CMD`, stored-code.ts), read as if it ran now.
   */
  readonly origin: 'line' | 'substitution' | 'subshell' | 'shell-c' | 'eval' | 'process-substitution' | 'stored' | 'unparsed';
  /** True when the parser could not read it; such a part is at least moderate (fail closed). */
  readonly unparsed?: boolean;
  /** True when the command name itself is dynamic (`$(…) args`, `$VAR args`). */
  readonly dynamicName?: boolean;
  /** Shell keywords that introduced this part (for/while/if bodies), used for exact-text patterns. */
  readonly keyword?: string;
  /** Text of the whole pipeline when this part is one stage of `a | b …` (lets rules see `curl … | sh`). */
  readonly pipeline?: string;
  /** 0-based stage of this part within `pipeline`; stages > 0 read the previous stage's output. */
  readonly pipeStage?: number;
}

export interface ParsedLine {
  readonly line: string;
  readonly parts: readonly Part[];
  /** True when the whole line or a piece of it could not be parsed. */
  readonly hadErrors: boolean;
}

export interface PartVerdict {
  readonly text: string;
  /** The program that actually runs, found through wrappers (`env`, `nice`, `timeout`, `xargs`, `VAR=x` …). */
  readonly executable: string;
  readonly level: Level;
  readonly reasons: readonly string[];
  /** The key a remembered answer is stored under: `git push *`, `ls *`, or exact text. */
  readonly pattern: string;
  readonly knownSafe: boolean;
  /** Authored question from an operator rule (`policy.rules[].ask`), never model text. */
  readonly ask?: string;
  /**
   * No remembered answer covers this part and no answer to it is kept: it is asked every time (edit_file on
   * `.git/`, wisp's config, package.json, or outside the project).
   */
  readonly askEveryTime?: boolean;
}

export type PolicyResult =
  | { readonly verdict: 'allowed' }
  | {
      readonly verdict: 'denied';
      /** A sentence: the built-in entry's ("downloads and runs a script") or the operator pattern's index and text. */
      readonly reason: string;
      /** Which entry: a built-in name (`download-and-run`), `policy.deny[N]` or `policy.allow`. */
      readonly rule?: string;
      readonly part?: string;
    };
