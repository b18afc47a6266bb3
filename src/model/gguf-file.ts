// Where `-m llama:…` points, checked before anything heavy is loaded: a missing file, a directory or a file that is not
// GGUF is a usage error at once (exit 64), not a crash inside llama.cpp minutes later.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { ModelError } from './types.js';

/** The four bytes every GGUF file starts with. */
export const GGUF_MAGIC = 'GGUF';

/** The folder `wisp models` manages and `llama:NAME` looks in. */
export function modelsDir(home: string): string {
  return join(home, 'models');
}

/**
 * `llama:NAME` (no slash, no `.gguf`) is a file in `$WISP_HOME/models/` (`NAME` or `NAME.gguf`); anything else is a
 * path, relative to `cwd`.
 */
export function resolveGgufPath(name: string, home: string, cwd: string): string {
  const looksLikePath = name.includes('/') || name.toLowerCase().endsWith('.gguf') || name.startsWith('.');
  if (looksLikePath) return isAbsolute(name) ? name : resolve(cwd, name);
  return join(modelsDir(home), `${name}.gguf`);
}

/** Throws ModelError `usage` unless `path` is a regular file that starts with the GGUF magic. */
export function checkGgufFile(path: string, spec: string): void {
  const hint = 'Give -m llama:PATH.gguf, or -m llama:NAME for a file in $WISP_HOME/models (see `wisp models list`)';
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new ModelError('usage', `The model file for "${spec}" is a directory: ${path}`, hint);
    if (!st.isFile()) throw new ModelError('usage', `The model file for "${spec}" is not a regular file: ${path}`, hint);
    size = st.size;
  } catch (err) {
    if (err instanceof ModelError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ModelError('usage', `No model file for "${spec}": ${path} does not exist`, hint);
    throw new ModelError('usage', `Cannot read the model file ${path} (${code ?? String(err)})`, hint);
  }
  const head = Buffer.alloc(4);
  let got = 0;
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    got = readSync(fd, head, 0, 4, 0);
  } catch (err) {
    throw new ModelError('usage', `Cannot read the model file ${path} (${(err as NodeJS.ErrnoException).code ?? String(err)})`, hint);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (size < 4 || got < 4 || head.toString('latin1') !== GGUF_MAGIC) {
    throw new ModelError('usage', `${path} is not a GGUF model file (it does not start with "GGUF")`, hint);
  }
}
