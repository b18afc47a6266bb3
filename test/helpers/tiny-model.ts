// The real test model (../shared/models/tiny-toolcaller.gguf, see its README). CI clones the repo with shared/ beside
// it; a worktree under wt/ has it one level higher. Tests that need it skip, saying so, when it is absent.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const CANDIDATES = ['../../../shared/models/tiny-toolcaller.gguf', '../../../../shared/models/tiny-toolcaller.gguf'].map((p) =>
  resolve(import.meta.dirname, p),
);

export const TINY = CANDIDATES.find((p) => existsSync(p)) ?? CANDIDATES[0]!;
export const haveTiny = existsSync(TINY);

/** Says once per test file why its real-model tests are skipped. */
export function warnIfNoTiny(what: string): void {
  if (!haveTiny) console.warn(`skipping ${what}: the test model ${TINY} is absent (see ../shared/models/README.md)`);
}
