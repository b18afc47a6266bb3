// The other process of the queue benchmark (bench/queue.ts), as `wisp approvals approve` would be: for each line
// `answer ID` on stdin it answers the pending request ID at once; for `ping NAME` it creates the plain file NAME in
// the pending directory (the baseline: how fast a new file is noticed at all). Either way it then reports on stdout
// when the file landed, as wall-clock milliseconds.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type * as QueueModule from '../src/escalation/queue/answerer.js';
import type * as QueueFilesModule from '../src/escalation/queue/files.js';
import type * as PathsModule from '../src/core/paths.js';
import { importDist, wallMs } from './lib.js';

const { answerRequest } = await importDist<typeof QueueModule>('src/escalation/queue/answerer.js');
const { readRequest } = await importDist<typeof QueueFilesModule>('src/escalation/queue/files.js');
const { wispPaths } = await importDist<typeof PathsModule>('src/core/paths.js');
const paths = wispPaths();
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const [verb, id] = line.split(' ');
  if (verb === 'ping') {
    // Timed from before the call: the watcher may hear of the file as soon as open() creates it.
    const at = wallMs();
    writeFileSync(join(paths.pending, id!), '');
    process.stdout.write(JSON.stringify({ id, at }) + '\n');
    continue;
  }
  const r = readRequest(paths.pending, id!);
  if (!r.ok) {
    process.stdout.write(JSON.stringify({ id, error: r.reason }) + '\n');
    continue;
  }
  answerRequest(paths, r.value, { decision: 'once' }, { via: 'cli' });
  process.stdout.write(JSON.stringify({ id, at: wallMs() }) + '\n');
}
