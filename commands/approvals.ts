// `wisp approvals …` (design.md §5). The queue's answering commands live here — `pending [--json]`,
// `approve ID [--scope S]`, `deny ID` — and the stored-approval ones (`list`, `revoke ID`, `clear`) are added to
// the same group from commands/approvals-store.ts. Bodies load lazily, when a subcommand runs.
import { safeJson } from '../src/core/safe-json.js';
import { Option, type Command } from 'commander';
import type { AuditContext, AuditSink } from '../src/audit/kinds.js';
import type { WispPaths } from '../src/core/paths.js';
import type { AnswerBody } from '../src/escalation/queue/answerer.js';
import { SCOPES, type Scope } from '../src/core/scopes.js';
import { registerStoreSubcommands } from './approvals-store.js';

type Verb = 'approval' | 'inquiry';

/** `--yes` on an answering command: no confirmation question; standard input must still be a terminal. */
export const YES_HELP = 'answer without asking for confirmation (standard input must still be a terminal)';

export function register(program: Command): void {
  const approvals = program
    .command('approvals')
    .description('Commands waiting for your approval, and the approvals wisp remembers');
  registerStoreSubcommands(approvals); // list | revoke ID | clear
  registerPending(approvals, 'approval');
  approvals
    .command('approve')
    .description('Approve a queued command (needs a terminal on standard input)')
    .argument('<id>', 'the request id, from `wisp approvals pending`')
    .addOption(new Option('--scope <scope>', 'how long the approval lasts').choices(SCOPES).default('once'))
    .option('--yes', YES_HELP)
    .action(async (id: string, opts: { scope: Scope; yes?: boolean }) => {
      await answer('approval', id, { decision: opts.scope }, opts.yes === true);
    });
  approvals
    .command('deny')
    .description('Refuse a queued command (needs a terminal on standard input)')
    .argument('<id>', 'the request id, from `wisp approvals pending`')
    .option('--yes', YES_HELP)
    .action(async (id: string, opts: { yes?: boolean }) => {
      await answer('approval', id, { decision: 'no' }, opts.yes === true);
    });
}

/** `pending [--json]` for one verb; `wisp inquiries` registers its own with this too. */
export function registerPending(group: Command, verb: Verb): void {
  group
    .command('pending')
    .description(verb === 'approval' ? 'Commands waiting for your approval' : 'Questions waiting for your answer')
    .option('--json', 'print a JSON array of the pending request files')
    .action(async (opts: { json?: boolean }) => {
      await listPending(verb, opts.json === true);
    });
}

async function listPending(verb: Verb, json: boolean): Promise<void> {
  const [{ wispPaths }, { lookAtQueue, auditRefusedFile }, { visible }, { formatDuration }, { renderTable, out, quietOnClosedPipe }] =
    await Promise.all([
      import('../src/core/paths.js'),
      import('../src/escalation/queue/answerer.js'),
      import('../src/core/visible.js'),
      import('../src/escalation/queue/display.js'),
      import('./output.js'),
    ]);
  quietOnClosedPipe();
  const paths = wispPaths();
  const audit = await openAuditFor(paths);
  const ctx = cliContext();
  const scan = lookAtQueue(paths, { audit, ctx }); // the stale are swept, never listed
  for (const r of scan.refused) {
    auditRefusedFile(audit, ctx, r); // told and recorded: a planted file is evidence
    process.stderr.write(`wisp: ignoring ${visible(r.file)}: ${r.reason}\n`);
  }
  const requests = scan.live.filter((r) => r.verb === verb);
  if (json) {
    out(safeJson(requests, 2) + '\n');
    return;
  }
  const tty = process.stdout.isTTY === true;
  if (requests.length === 0) {
    if (tty) out(verb === 'approval' ? 'no commands are waiting for approval\n' : 'no questions are waiting\n');
    return;
  }
  const now = Date.now();
  const left = (expiresAt: string | null): string =>
    expiresAt === null ? 'while it runs' : formatDuration(Date.parse(expiresAt) - now);
  const who = (client: string, thread: string | null): string =>
    visible(client, { maxChars: 24 }) + (thread === null ? '' : `/${visible(thread, { maxChars: 24 })}`);
  // The command or question is shown whole (long blank runs collapsed and flagged), never cut: a person reads
  // here what they may then approve.
  const whole = (t: string): string => visible(t, { maxChars: Number.POSITIVE_INFINITY, collapseRuns: true });
  const rows = requests.map((r) =>
    r.verb === 'approval'
      ? [r.id, r.level, left(r.expiresAt), who(r.client, r.thread), whole(r.command)]
      : [r.id, left(r.expiresAt), who(r.client, r.thread), whole(r.question)],
  );
  const headers = verb === 'approval' ? ['ID', 'LEVEL', 'EXPIRES IN', 'ASKED BY', 'COMMAND'] : ['ID', 'EXPIRES IN', 'ASKED BY', 'QUESTION'];
  out(renderTable(headers, tty ? wrapLastColumn(headers, rows, process.stdout.columns ?? 100) : rows, { tty }));
  if (tty) {
    out(
      verb === 'approval'
        ? '\nanswer: wisp approvals approve ID [--scope once|session|project|always]  ·  wisp approvals deny ID\n'
        : '\nanswer: wisp inquiries answer ID TEXT  ·  wisp inquiries decline ID\n',
    );
  }
}

/**
 * Wraps the last column to the terminal's width: continuation lines are rows with empty leading cells, so the
 * table stays aligned. Breaks never fall inside an escape (`\x1b`, `<U+202E>`, `⟨990 spaces⟩`).
 */
export function wrapLastColumn(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, columns: number): string[][] {
  const lead = headers.length - 1;
  let used = 0;
  for (let i = 0; i < lead; i++) used += Math.max(headers[i]!.length, ...rows.map((r) => (r[i] ?? '').length)) + 2;
  const width = Math.max(20, columns - used - 1);
  const out: string[][] = [];
  for (const row of rows) {
    const pieces = (row[lead] ?? '').match(/\\x[0-9a-f]{2}|\\.|<U\+[0-9A-F]{4,6}>|\u27e8[^\u27e9]*\u27e9|[\s\S]/gu) ?? [];
    const lines: string[] = [];
    let line = '';
    for (const p of pieces) {
      if (line.length > 0 && [...line].length + [...p].length > width) {
        lines.push(line);
        line = '';
      }
      line += p;
    }
    lines.push(line);
    lines.forEach((l, i) => out.push(i === 0 ? [...row.slice(0, lead), l] : [...row.slice(0, lead).map(() => ''), l]));
  }
  return out;
}

/** approve/deny here, answer/decline in `wisp inquiries`. A refusal throws a WispError carrying its exit code. */
export async function answer(verb: Verb, id: string, body: AnswerBody, yes = false): Promise<void> {
  const [{ wispPaths }, { answerFromTerminal }] = await Promise.all([
    import('../src/core/paths.js'),
    import('../src/escalation/queue/answer-terminal.js'),
  ]);
  const paths = wispPaths();
  await answerFromTerminal({
    paths,
    audit: await openAuditFor(paths),
    ctx: cliContext(),
    id,
    verb,
    body,
    stdinIsTTY: process.stdin.isTTY === true,
    print: (text) => process.stdout.write(text),
    ...(yes ? {} : { confirm: confirmOnTerminal }),
  });
}

/** How long the confirmation question waits: a bounded wait, and silence writes nothing (a refusal). */
export const CONFIRM_TIMEOUT_MS = 120_000;

/**
 * Asks on the terminal; only an explicit `y` or `yes` confirms (Enter, anything else, Ctrl-C, Ctrl-D or no reply
 * within {@link CONFIRM_TIMEOUT_MS} do not).
 */
async function confirmOnTerminal(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline');
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    const reply = await new Promise<string>((resolve) => {
      rl.on('SIGINT', () => rl.close());
      rl.once('close', () => resolve(''));
      timer = setTimeout(() => {
        process.stdout.write(`\nno reply within ${CONFIRM_TIMEOUT_MS / 1000} s: nothing was answered\n`);
        rl.close();
      }, CONFIRM_TIMEOUT_MS);
      rl.question(question, resolve);
    });
    return /^\s*y(es)?\s*$/i.test(reply);
  } finally {
    if (timer) clearTimeout(timer);
    rl.close();
  }
}

function cliContext(): AuditContext {
  return { session: `cli-${process.pid}-${Date.now().toString(36)}` };
}

/** The audit log, opened as every face opens it (rotation limits from the loaded config). */
async function openAuditFor(paths: WispPaths): Promise<AuditSink> {
  const [{ loadConfig }, { openAudit }, { VERSION }] = await Promise.all([
    import('../src/config/load.js'),
    import('../src/audit/writer.js'),
    import('../src/core/version.js'),
  ]);
  const { config } = loadConfig({ home: paths.home, cwd: process.cwd() });
  return openAudit({ file: paths.audit, maxFileBytes: config.audit.maxFileBytes, keepFiles: config.audit.keepFiles, version: VERSION });
}
