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
