// The body of `wisp respond`, loaded only when the command runs.
import { setFlagsFromString } from 'node:v8';
import { safeJson } from '../src/core/safe-json.js';
import { parserReady } from '../src/gate/parse.js';
import { loadConfig } from '../src/config/load.js';
import { exitReason, openSession } from '../src/session/session.js';
import { wispHome } from '../src/core/paths.js';
import { UsageError } from '../src/core/errors.js';
import { visible } from '../src/core/visible.js';
import { TurnReceipt, type ToolEvent } from '../src/tools/types.js';
import { doneBeforeFailure } from '../src/session/conversation.js';
import { resolveChannel } from './options.js';

export interface RespondFlags {
  model?: string;
  yes?: boolean;
  escalation?: string;
  tool?: string[];
  tools?: boolean;
  json?: boolean;
  instructions?: string;
}

export async function runRespond(words: string[], flags: RespondFlags): Promise<number> {
  let prompt = words.join(' ').trim();
  if (!prompt) {
    if (process.stdin.isTTY) throw new UsageError('no prompt: give one as an argument or pipe it on standard input (wisp respond --help)');
    prompt = (await readStdin()).trim();
    if (!prompt) throw new UsageError('the prompt read from standard input is empty');
  }
  const cwd = process.cwd();
  const home = wispHome();
  const loaded = loadConfig({ home, cwd });
  loaded.warnings.forEach((w) => process.stderr.write(`wisp: ${w}\n`));
  const { channel, notice, notUsed } = resolveChannel({
    ...(flags.yes ? { yes: true } : {}),
    ...(flags.escalation !== undefined ? { flag: flags.escalation } : {}),
    ...(loaded.config.escalation.channel ? { configured: loaded.config.escalation.channel } : {}),
    face: 'wisp respond',
  });
  if (notice) process.stderr.write(`wisp: ${notice}\n`);
  // One turn, then exit: keep the parser's wasm on V8's baseline compiler, as `wisp check` does (ADR 0012, 0030).
  // Otherwise V8 starts optimising the grammar after the first few parses, and the process waits seconds for that
  // background work before it can exit, long after the reply was printed.
  if (!parserReady()) setFlagsFromString('--liftoff-only');
  const session = await openSession({
    entryPoint: 'respond',
    cwd,
    home,
    config: loaded.config,
    channel,
    ...(notUsed ? { channelNotUsed: notUsed } : {}),
    client: 'respond',
    ...(flags.model ? { modelSpec: flags.model } : {}),
    defaultOrder: true,
    ...(flags.tool && flags.tool.length ? { toolNames: flags.tool } : {}),
    ...(flags.tools === false ? { noTools: true } : {}),
  });
  const spinner = new Spinner(!flags.json && process.stderr.isTTY === true);
  // However the process ends (SIGTERM, a closed terminal), the session ends with it: what waits is settled (ADR 0102).
  process.once('exit', (status) => session.end(exitReason(status)));
  process.once('SIGINT', () => {
    spinner.stop();
    session.end('interrupted');
    process.exit(130);
  });
  let streamed = false;
  // Filled as the turn goes, so a turn that fails still says what it ran (ADR 0094).
  const receipt = new TurnReceipt();
  try {
    const conversation = session.conversation(flags.instructions ? { instructions: flags.instructions } : {});
    spinner.start();
    const result = await conversation.turn(prompt, {
      onText: (delta) => {
        spinner.stop();
        if (flags.json) return;
        streamed = true;
        process.stdout.write(shownReply(delta));
      },
      onEvent: (event) => {
        spinner.stop();
        if (!flags.json) process.stderr.write(gateLine(event));
        spinner.start();
      },
      onProgress: (message) => {
        // Even with --json (stdout stays the JSON alone): a wait for a person must say where to answer, or it is
        // a silent hang of up to escalation.timeoutSeconds (ADR 0097).
        spinner.stop();
        process.stderr.write(`  ${message}\n`);
      },
      receipt,
    });
    spinner.stop();
    if (flags.json) {
      process.stdout.write(safeJson({ text: result.text, refusals: result.refusals, receipt: result.receipt }, 2) + '\n');
    } else {
      if (!streamed) process.stdout.write(shownReply(result.text));
      if (!result.text.endsWith('\n')) process.stdout.write('\n');
      // A reason may quote a part of the line (`command not approved: PART: …`): model text, so made visible.
      for (const r of result.refusals) process.stderr.write(`wisp: refused: ${visible(r.command, { maxChars: 200 })}: ${visible(r.reason, { maxChars: 600 })}\n`);
    }
    session.end('done');
    return 0;
  } catch (err) {
    spinner.stop();
    session.fail(err);
    if (flags.json) {
      // The shape of a finished turn, with `error`: what ran before the failure is on record for the caller too.
      const error = err instanceof Error ? err.message : String(err);
      process.stdout.write(safeJson({ error, text: null, refusals: receipt.refusals, receipt }, 2) + '\n');
    } else {
      const done = doneBeforeFailure(receipt);
      if (done) process.stderr.write(`wisp: ${done}\n`);
    }
    throw err;
  }
}

function gateLine(event: ToolEvent): string {
  switch (event.type) {
    case 'gate': {
      const what = `${event.tool}: ${visible(event.subject, { maxChars: 160 })}`;
      const how = event.allowed ? event.notes.join('; ') : (event.notes[event.notes.length - 1] ?? event.reason ?? 'refused');
      return `· ${what} — ${visible(how, { maxChars: 400 })}\n`;
    }
    case 'output':
      return event.text ? event.text.split('\n').map((l) => `  │ ${visible(l, { maxChars: 200 })}\n`).join('') : '';
    case 'inquiry':
      return `· ask_operator: ${visible(event.question, { maxChars: 160 })} — ${event.outcome}\n`;
    case 'failed':
      // Not a refusal, yet it did not happen: the person reads that here, not only the model (ADR 0097).
      // The tool's name may be the model's (an unknown tool): made visible like the error.
      return `· ${visible(event.tool, { maxChars: 64 })} failed: ${visible(event.error, { maxChars: 600 })}\n`;
  }
}

/**
 * The reply as written to standard output: exactly as the model wrote it when stdout is a file or a pipe (it is
 * data), but made visible on a terminal, as the chat transcript shows it, so a reply cannot move the cursor, clear
 * the screen or pose as one of wisp's own lines (design.md §10).
 */
function shownReply(text: string): string {
  if (process.stdout.isTTY !== true) return text;
  return visible(text.replace(/\t/g, '    '), { multiline: true, maxChars: Number.MAX_SAFE_INTEGER });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A one-line spinner on stderr while the model thinks; only on a terminal, never in --json. */
class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  constructor(private readonly enabled: boolean) {}
  start(): void {
    if (!this.enabled || this.timer) return;
    this.timer = setInterval(() => {
      process.stderr.write(`\r${'⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'[this.frame++ % 10]} thinking…`);
    }, 100);
  }
  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    process.stderr.write('\r\x1b[2K');
  }
}
