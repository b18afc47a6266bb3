// `wisp chat` with no model anywhere (ADR 0051): in the terminal, before the chat draws, offer the default download —
// its name, size and where it goes. Enter downloads it with a progress bar and the chat starts on it; Esc (or q,
// Ctrl-C) quits, listing the other ways to give wisp a model.
import type { Config } from '../src/config/schema.js';
import { defaultDownload, noModelChoices } from '../src/model/default-order.js';
import { QUIET_MS, SEE_MS } from '../ui/key-rhythm.js';
import { pullWithProgress } from './models-run.js';

export interface OfferIO {
  readonly input: NodeJS.ReadStream;
  readonly output: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Resolves to the spec to chat with, or to an exit code when the person quit or the download failed. */
export async function offerDefaultModel(config: Config, home: string, io: OfferIO = { input: process.stdin, output: process.stderr }): Promise<string | number> {
  const d = defaultDownload(config, home);
  const { output } = io;
  output.write(
    [
      `wisp needs a model: Ollama does not answer at ${config.ollama.baseURL}, and there is no .gguf file in ${d.dest.slice(0, d.dest.lastIndexOf('/'))}.`,
      '',
      `Download ${d.name} (${d.size}) now?`,
      `  from ${new URL(d.url).host}`,
      `  to   ${d.dest}`,
      '',
      'Enter: download and start the chat    Esc: quit',
      '',
    ].join('\n'),
  );
  const key = await readOfferKey(io.input, output);
  if (key !== 'enter') {
    output.write(`\n${noModelChoices(config, home)}\n`);
    return 0;
  }
  const result = await pullWithProgress({ url: d.url, dest: d.dest, ...(config.models.download.sha256 ? { sha256: config.models.download.sha256 } : {}) }, output);
  if (!result.ok) {
    output.write(`wisp: ${result.message}\nRun \`wisp models pull\` to try again (it continues the download).\n`);
    return 1;
  }
  output.write(`Saved ${result.path}; starting the chat on it (next time it is found by itself).\n`);
  return `llama:${result.path}`;
}

/**
 * Waits for Enter (download) or Esc / q / Ctrl-C (quit); other keys are ignored. Enter starts a download, so it counts
 * only as a reaction to the question (ADR 0023's rule for dialogs): at least SEE_MS after the question was written
 * and QUIET_MS after any earlier key. An Enter typed while wisp was starting (kept by the terminal until now) or in
 * the middle of typing is not consent. Quitting needs no pause.
 */
export function readOfferKey(input: NodeJS.ReadStream, output: NodeJS.WritableStream, now: () => number = Date.now): Promise<'enter' | 'quit'> {
  return new Promise((resolve) => {
    const raw = input.isTTY === true;
    if (raw) input.setRawMode(true);
    const shownAt = now();
    let last = Number.NEGATIVE_INFINITY;
    let told = false;
    const done = (k: 'enter' | 'quit') => {
      input.off('data', onData);
      if (raw) input.setRawMode(false);
      input.pause();
      resolve(k);
    };
    const onData = (chunk: Buffer) => {
      const s = chunk.toString('utf8');
      const t = now();
      const deliberate = t - shownAt >= SEE_MS && t - last >= QUIET_MS;
      last = t;
      if (s === '\x1b' || s === 'q' || s === 'Q' || s === '\x03') return done('quit');
      if (s !== '\r' && s !== '\n') return;
      if (deliberate) return done('enter');
      if (!told) output.write('(an Enter typed before this question was read is not an answer: press Enter again to download)\n');
      told = true;
    };
    input.on('data', onData);
    input.resume();
  });
}
