// `wisp models list | pull | rm`: the GGUF files in $WISP_HOME/models that `-m llama:NAME` runs in-process.
// The body loads lazily.
import type { Command } from 'commander';
import type { ModelsPullFlags } from './models-run.js';

export function register(program: Command): void {
  const models = program
    .command('models')
    .description('Manage the GGUF model files that -m llama:NAME runs in-process ($WISP_HOME/models)');
  models
    .command('list')
    .description('List the model files, their sizes, and unfinished downloads')
    .option('--json', 'print them as JSON')
    .action(async (flags: { json?: boolean }) => {
      const { runModelsList } = await import('./models-run.js');
      process.exitCode = await runModelsList(flags);
    });
  models
    .command('pull')
    .description('Download the default model (models.download.*), or --url; resumable, checksum verified')
    .option('--url <url>', 'download this file instead of models.download.url')
    .option('--sha256 <hex>', 'expected SHA-256 (default: models.download.sha256, else what the server announces)')
    .option('--name <name>', 'file name under $WISP_HOME/models, without .gguf')
    .addHelpText('after', '\nExamples:\n  wisp models pull\n  wisp models pull --url https://…/model.gguf --sha256 ab12… --name mine\n  wisp -m llama:mine')
    .action(async (flags: ModelsPullFlags) => {
      const { runModelsPull } = await import('./models-run.js');
      process.exitCode = await runModelsPull(flags);
    });
  models
    .command('rm')
    .description('Delete a model file (and its unfinished download)')
    .argument('<name>', 'the name wisp models list shows')
    .action(async (name: string) => {
      const { runModelsRm } = await import('./models-run.js');
      process.exitCode = await runModelsRm(name);
    });
}
