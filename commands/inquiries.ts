// `wisp inquiries pending [--json] | answer ID TEXT | decline ID` (design.md §5): the model's questions, queued.
import type { Command } from 'commander';
import { answer, registerPending, YES_HELP } from './approvals.js';

export function register(program: Command): void {
  const inquiries = program.command('inquiries').description("The model's questions waiting for your answer");
  registerPending(inquiries, 'inquiry');
  inquiries
    .command('answer')
    .description('Answer a queued question (needs a terminal on standard input; at most 4 KiB)')
    .argument('<id>', 'the request id, from `wisp inquiries pending`')
    .argument('<text>', 'your answer')
    .option('--yes', YES_HELP)
    .action(async (id: string, text: string, opts: { yes?: boolean }) => {
      await answer('inquiry', id, { text }, opts.yes === true);
    });
  inquiries
    .command('decline')
    .description('Decline to answer a queued question (needs a terminal on standard input)')
    .argument('<id>', 'the request id, from `wisp inquiries pending`')
    .option('--yes', YES_HELP)
    .action(async (id: string, opts: { yes?: boolean }) => {
      await answer('inquiry', id, { declined: true }, opts.yes === true);
    });
}
