// `wisp approvals list|revoke ID|clear`: the approvals wisp remembers beyond a session ($WISP_HOME/approvals.json,
// scopes `project` and `always`). Added to the `approvals` group by commands/approvals.ts; the body loads lazily.
import type { Command } from 'commander';

export function registerStoreSubcommands(approvals: Command): void {
  approvals
    .command('list')
    .description('The approvals wisp remembers (project and always scopes) and when they expire')
    .option('--json', 'print a JSON array of the stored entries')
    .action(async (opts: { json?: boolean }) => {
      const { listApprovals } = await import('./approvals-store-run.js');
      listApprovals(opts.json === true);
    });
  approvals
    .command('revoke')
    .description('Forget one stored approval, so its pattern is asked about again')
    .argument('<id>', 'the approval id, from `wisp approvals list`')
    .action(async (id: string) => {
      const { revokeApproval } = await import('./approvals-store-run.js');
      revokeApproval(id);
    });
  approvals
    .command('clear')
    .description('Forget every stored approval (a corrupt approvals.json is kept aside as evidence)')
    .action(async () => {
      const { clearApprovals } = await import('./approvals-store-run.js');
      clearApprovals();
    });
}
