// The body of `wisp init`. Never overwrites: an existing file is left as it is and the command says so (exit 1).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configJsonSchema } from '../src/config/keys.js';
import { loadConfig } from '../src/config/load.js';
import { ConfigSchema } from '../src/config/schema.js';
import { wispPaths } from '../src/core/paths.js';
import { WispError } from '../src/core/errors.js';

export interface InitFlags {
  project?: boolean;
}

export function runInit(flags: InitFlags): void {
  if (flags.project) initProject(process.cwd());
  else initUser();
}

function initUser(): void {
  const paths = wispPaths();
  if (existsSync(paths.config)) {
    throw new WispError(`${paths.config} already exists; nothing was written (wisp config show --user prints it, wisp config set KEY VALUE edits it)`);
  }
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  const schemaFile = join(paths.home, 'config.schema.json');
  writeFileSync(schemaFile, JSON.stringify(configJsonSchema(), null, 2) + '\n', { mode: 0o600 });
  const defaults = ConfigSchema.parse({});
  // Only what a new user sets first; every other key keeps its default until it is written here.
  const starter = { $schema: './config.schema.json', model: defaults.model, approval: { threshold: defaults.approval.threshold } };
  writeFileSync(paths.config, JSON.stringify(starter, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  process.stdout.write(
    [
      `wrote ${paths.config} (and ${schemaFile}, so an editor describes every key)`,
      'next:',
      '  wisp doctor                              is the model reachable, does the sandbox work?',
      '  wisp config set model ollama:NAME        or openai:NAME with openai.baseURL, or script:PATH',
      '  wisp config schema                       every key, its default and what it does',
      '',
    ].join('\n'),
  );
}

function initProject(cwd: string): void {
  const file = join(cwd, '.wisprc');
  if (existsSync(file)) throw new WispError(`${file} already exists; nothing was written`);
  const d = ConfigSchema.parse({});
  const text = `# wisp project config (YAML). Found by wisp in this directory and the ones below it; see docs/wisp.md.
# A project config may only make the gate stricter: a key that would loosen it is ignored with a warning, and
# the model, addresses and audit settings come only from your user config ($WISP_HOME/config.json).
# Uncomment what this project needs (YAML: keep the indentation).

# approval:
#   threshold: ${d.approval.threshold}        # ask at or above: safe, moderate, dangerous (only stricter than yours)
#   persistDays: ${d.approval.persistDays}            # remembered approvals last at most this long here

# escalation:
#   timeoutSeconds: ${d.escalation.timeoutSeconds}       # an unanswered question is a refusal after this long (shorter only)

sandbox:
  enabled: true               # commands here always run in the sandbox (a project can only turn it on)
  # allowNetwork: false       # commands here get no network

# policy:
#   deny:                     # added to your own deny list: a matching command line is refused
#     - '^npm publish\\b'
#   rules:                    # raise matching parts to a level (never lower)
#     - match: '^terraform apply\\b'
#       level: dangerous

# commands:
#   timeoutSeconds: ${d.commands.timeoutSeconds}         # a command is killed after this long (shorter only)

# tools:
#   disabled: [edit_file]     # tools the model does not get here
#   maxRounds: ${d.tools.maxRounds}
`;
  writeFileSync(file, text, { flag: 'wx' });
  // What was written must load: a starter that broke the config would be the worst first step.
  loadConfig({ home: wispPaths().home, cwd });
  process.stdout.write(`wrote ${file}: uncomment what this project needs; wisp config show prints the result\n`);
}
