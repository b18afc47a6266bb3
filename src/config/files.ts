// Which files hold a project's config, and how large a config file may be: shared by the full loader (load.ts) and
// the zod-free quick path (quick.ts) without either importing the other.

/** Project config files, in the order they win within one directory. Never JavaScript or TypeScript. */
export const PROJECT_FILES = ['.wisprc.json', '.wisprc', 'package.json'] as const;

/** Config files larger than this are refused rather than parsed. */
export const MAX_CONFIG_BYTES = 1024 * 1024;
