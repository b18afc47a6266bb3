// Which files and directories hold secrets, by name. The containment covers them in a contained run and read_file
// asks before reading them. Data, not heuristics on content: a name is checked, never a file's text.
import { basename } from 'node:path';

/** Directories whose whole content is credentials (found in a home directory or in a project). */
export const SECRET_DIRS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.azure',
  '.kube',
  '.docker',
  '.password-store',
  '.gcloud',
  '.terraform.d',
  '.vault',
];

/** Directories that hold secrets only when they sit directly in a home directory (`~/.config`, not `src/.config`). */
export const HOME_SECRET_DIRS: readonly string[] = [...SECRET_DIRS, '.config', '.local/share/keyrings', '.mozilla', '.pki'];

/** Exact file names that hold credentials. */
const SECRET_FILES = new Set([
  '.netrc',
  '_netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.pgpass',
  '.my.cnf',
  '.vault-token',
  '.boto',
  '.terraformrc',
  '.envrc',
  '.htpasswd',
  'credentials',
  'credentials.json',
  'secrets.json',
  'secrets.yaml',
  'secrets.yml',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
  // Plain-text secrets under ordinary-looking names (ADR 0092): Terraform's state, WordPress's database password,
  // Docker's old credential file.
  'terraform.tfstate',
  'terraform.tfstate.backup',
  'wp-config.php',
  '.dockercfg',
]);

/** Endings of key and keystore files. */
// `.ppk`: PuTTY's private keys; `.p8`: PKCS #8 keys (Apple's `AuthKey_….p8`) (ADR 0096).
const SECRET_SUFFIXES = ['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.kdbx', '.gpg', '.asc', '.tfstate', '.tfvars', '.ppk', '.p8'];

/**
 * True for a file name that holds or likely holds a secret: `.env` and every `.env.*` / `*.env`, key files, the
 * known credential files. Public halves of keys (`id_rsa.pub`) are not secret.
 */
export function isSecretFileName(name: string): boolean {
  const n = name.toLowerCase();
  if (n.endsWith('.pub')) return false;
  if (n === '.env' || n.startsWith('.env.') || n.endsWith('.env')) return true;
  if (SECRET_FILES.has(n)) return true;
  if (/^id_(rsa|dsa|ecdsa|ed25519)(_sk)?[-_.]/.test(n)) return true;
  return SECRET_SUFFIXES.some((s) => n.endsWith(s));
}

export function isSecretDirName(name: string): boolean {
  return SECRET_DIRS.includes(name.toLowerCase());
}

/** Folder names that say "what is in here is secret" without naming a tool's own folder (ADR 0101). */
const SECRET_FOLDERS = new Set(['secrets', '.secrets', 'secret', '.secret', 'private_keys', 'private-keys']);

/**
 * A folder whose whole content a contained run must not see: a secret directory (`.ssh`), a folder called
 * `secrets`, or one named like a secret file — `.env/`, `credentials/`, `.env.production/`, `keys.p12/`: what such a
 * name marks as secret does not stop being so when a tool or a person makes it a folder (ADR 0101).
 */
export function isSecretFolderName(name: string): boolean {
  const n = name.toLowerCase();
  return isSecretDirName(n) || SECRET_FOLDERS.has(n) || isSecretFileName(n);
}

/** True when a folder on the way to `path` (not its last component) is a secret folder by {@link isSecretFolderName}. */
export function inSecretFolder(path: string): boolean {
  const parts = path.split('/').filter(Boolean);
  return parts.slice(0, -1).some((p) => isSecretFolderName(p));
}

/** True when any component of `path` is a secret directory, or its last component a secret file name. */
export function isSecretPath(path: string): boolean {
  const parts = path.split('/').filter(Boolean);
  if (parts.some((p) => isSecretDirName(p))) return true;
  return isSecretFileName(basename(path));
}

/**
 * One example name for every entry of the lists above (`x.pem` for the `.pem` ending, `x.env` and `.env.local` for
 * environment files), so a glob can be tried against the same list the containment uses: a glob that matches one of
 * these may match a secret.
 */
export const SECRET_NAME_EXAMPLES: readonly string[] = [
  ...SECRET_DIRS,
  ...SECRET_FILES,
  '.env',
  '.env.local',
  'x.env',
  'id_rsa_x',
  ...SECRET_SUFFIXES.map((s) => `x${s}`),
];
