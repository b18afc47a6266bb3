// Files that make a later program run code or hand out credentials: the sandbox keeps an approved command from
// writing them in every writable root, and the classifier asks about a write to them every time (ADR 0092).

/**
 * Paths, relative to each writable root, that an approved command may not write: each makes some later program
 * run code or hand out credentials (docs/trust.md). The classifier reads the same list for writes the sandbox does not
 * hold back (ADR 0092).
 */
export const PROTECTED_IN_ROOTS: readonly string[] = [
  '.git/hooks',
  '.git/config',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.gitconfig',
  // Version control's own config outside .git (ADR 0101): git's XDG file (config, attributes with filter drivers),
  // Mercurial's and Jujutsu's repository and user files — each can name a program to run (hooks, a pager, a merge
  // or diff tool, an alias). Subversion's client keeps none in a working copy.
  '.config/git',
  '.config/hg',
  '.config/jj',
  '.hgrc',
  '.hg/hgrc',
  '.jjconfig.toml',
  '.jj/repo/config.toml',
  '.envrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.netrc',
  '.ssh',
  '.vscode',
  '.idea',
  '.mcp.json',
  '.claude',
  '.wisprc',
  '.wisprc.json',
  '.wisp',
];

/**
 * Project files that a tool runs as code, or that name a program a tool runs, on an action of the person's that does
 * not look like running the project's code (ADR 0096): a commit runs `.husky/` hooks and those named in
 * `.pre-commit-config.yaml` or lefthook's file; entering the folder runs mise's hooks and `_.source` (and a
 * `.tool-versions` `path:` puts a folder's programs first on PATH); opening it in a container runs `.devcontainer/`'s
 * commands; `cargo check` (an editor runs it) uses `.cargo/config.toml`'s wrapper and runner; `npm install` runs
 * package.json's install scripts, `composer install` composer.json's, `bundle install` evaluates the Gemfile, pnpm runs
 * `.pnpmfile.cjs` and bun preloads what `bunfig.toml` names. A shell write to one is dangerous and an edit_file of one is
 * asked every time. A name matches wherever it lies below the project or the home folder (`packages/a/package.json`).
 * The sandbox does not hold these back: a checkout, a pull or a stash rewrites them (`PROTECTED_IN_ROOTS` stays
 * the sandbox's list).
 */
export const RUN_BY_TOOLS: readonly string[] = [
  '.husky',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  '.lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yaml',
  '.mise.toml',
  'mise.toml',
  '.mise.local.toml',
  'mise.local.toml',
  '.mise',
  '.config/mise',
  '.tool-versions',
  '.devcontainer',
  '.devcontainer.json',
  '.cargo/config.toml',
  '.cargo/config',
  'package.json',
  'composer.json',
  'Gemfile',
  '.pnpmfile.cjs',
  'bunfig.toml',
];

/** The RUN_BY_TOOLS entry a path (relative, `/`-separated) lies in, wherever it is: `a/.husky/pre-commit` → `.husky`. */
export function runByToolsEntry(rel: string): string | undefined {
  for (const e of RUN_BY_TOOLS) {
    // The entry as whole path segments: at the start or after a `/`, and at the end or before a `/`.
    for (let i = rel.indexOf(e); i >= 0; i = rel.indexOf(e, i + 1)) {
      const end = i + e.length;
      if ((i === 0 || rel.charCodeAt(i - 1) === 0x2f) && (end === rel.length || rel.charCodeAt(end) === 0x2f)) return e;
    }
  }
  return undefined;
}
