// `wisp doctor`: checks that wisp can work here — config, model, sandbox, $WISP_HOME and pending/ permissions, the
// approvals store, the audit log — one line each, with what to do about a failure. Exit 1 if any check fails.
import type { Command } from 'commander';
import type { DoctorFlags } from './doctor-run.js';

export function register(program: Command): void {
  program
    .command('doctor')
    .description('Check the config, model, sandbox, $WISP_HOME permissions and the audit log; exit 1 if anything fails')
    .option('-m, --model <spec>', 'check this model instead of the configured one')
    .option('--json', 'print {ok, checks: [{name, status, detail, fix?}]}')
    .action(async (flags: DoctorFlags) => {
      const { runDoctor } = await import('./doctor-run.js');
      process.exitCode = await runDoctor(flags);
    });
}
