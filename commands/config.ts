// `wisp config show|get KEY|set KEY VALUE|unset KEY|path|schema`: read and edit the user config
// ($WISP_HOME/config.json). Edits are validated against the schema before anything is written, land atomically,
// are audited (`config.change`) and say what they weaken. The body loads lazily.
import type { Command } from 'commander';
import type { ConfigShowFlags } from './config-run.js';

export function register(program: Command): void {
  const config = program
    .command('config')
    .description('Show and edit the user config ($WISP_HOME/config.json); changes apply to sessions started afterwards')
    .addHelpText(
      'after',
      '\nExamples:\n  wisp config get approval.threshold\n  wisp config set escalation.timeoutSeconds 120\n' +
        '  wisp config set sandbox.writablePaths \'["~/.cache"]\'\n  wisp config unset approval.threshold\n' +
        '  wisp config schema > ~/.wisp/config.schema.json',
    );
  const body = () => import('./config-run.js');
  config
    .command('show', { isDefault: true })
    .description('Print the effective config as JSON (defaults < user < project)')
    .option('--user', 'print only what the user config file sets')
    .action(async (flags: ConfigShowFlags) => (await body()).showConfig(flags));
  config
    .command('get')
    .description('Print one effective value (strings as text, everything else as JSON)')
    .argument('<key>', 'dotted key, e.g. approval.threshold')
    .option('--json', 'print the value as JSON, strings included')
    .action(async (key: string, flags: { json?: boolean }) => (await body()).getConfig(key, flags.json === true));
  config
    .command('set')
    .description('Set a key in the user config; the value is read by the key\'s type (arrays as JSON)')
    .argument('<key>', 'dotted key, e.g. escalation.timeoutSeconds')
    .argument('<value>', 'the value: a number, true/false, one of the allowed words, text, or JSON for arrays')
    .action(async (key: string, value: string) => (await body()).setConfig(key, value));
  config
    .command('unset')
    .description('Remove a key from the user config, so its default (or the project\'s value) applies')
    .argument('<key>', 'dotted key, e.g. approval.threshold')
    .action(async (key: string) => (await body()).unsetConfig(key));
  config
    .command('path')
    .description('Print the path of the user config file (with --all, also the project config in use)')
    .option('--all', 'one line per layer: user and project, tab-separated with whether it exists')
    .action(async (flags: { all?: boolean }) => (await body()).configPath(flags.all === true));
  config
    .command('schema')
    .description('Print the JSON Schema of config.json, generated from wisp\'s own schema (for editors)')
    .action(async () => (await body()).printSchema());
}
