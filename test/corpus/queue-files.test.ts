// Corpus: bad queue files (test/corpus/queue-files.json) planted in $WISP_HOME/pending. Requests: never listed as
// live, refused by `wisp approvals approve` (audited), no answer written. Answers: refused by the waiting process
// (audited), which keeps waiting, runs nothing, and still takes a proper answer afterwards.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { answerRequest } from '../../src/escalation/queue/answerer.js';
import { QueueChannel } from '../../src/escalation/queue/asker.js';
import { answerFromTerminal } from '../../src/escalation/queue/answer-terminal.js';
import {
  answerPath,
  bindingOf,
  pendingDir,
  readRequest,
  requestPath,
  type QueueRequest,
  type UnboundRequest,
} from '../../src/escalation/queue/files.js';
import { scanDir } from '../../src/escalation/queue/scan.js';
import type { EscalationOutcome } from '../../src/escalation/types.js';
import { wispPaths, type WispPaths } from '../../src/core/paths.js';
import { WispError } from '../../src/core/errors.js';
import { waitFor } from '../mcp/helpers.js';
import { loadCorpus, title } from './load.js';

interface FileCase {
  readonly name: string;
  readonly make: string;
  readonly reason: string;
  readonly text?: string;
  readonly fields?: Record<string, unknown>;
  readonly field?: string;
  readonly mode?: number;
  readonly uid?: number;
  readonly verb?: 'approval' | 'inquiry';
}

const corpus = loadCorpus<{ requests: FileCase[]; answers: FileCase[] }>('queue-files.json');
let root: string;
let n = 0;
beforeAll(() => {
  root = fs.mkdtempSync(join(tmpdir(), 'wisp-corpus-queue-'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function freshPaths(): { paths: WispPaths; dir: string } {
  const home = join(root, `home${n++}`);
  fs.mkdirSync(home, { mode: 0o700 });
  const paths = wispPaths(home);
  return { paths, dir: pendingDir(paths, { create: true })! };
}

function approvalRequest(id: string): QueueRequest {
  const unbound: UnboundRequest = {
    id,
    mode: 'waiting',
    thread: 't1',
    client: 'corpus',
    pid: process.pid,
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
    verb: 'approval',
    command: 'touch marker',
    line: 'touch marker',
    pattern: 'touch *',
    directory: root,
    level: 'moderate',
    reasons: ['modifies files'],
    ask: null,
  };
  return { ...unbound, binding: bindingOf(unbound) } as QueueRequest;
}

/** Puts `data` (or a special file) under `final` in one step (rename), so a watcher never sees it half-written. */
function plant(final: string, c: FileCase, json: string, extra: { other?: string } = {}): void {
  const tmp = `${final}.planting`;
  switch (c.make) {
    case 'fifo':
      expect(spawnSync('mkfifo', ['-m', '600', tmp]).status).toBe(0);
      break;
    case 'directory':
      fs.mkdirSync(tmp, { mode: 0o700 });
      break;
    case 'symlink': {
      const target = join(root, `target-${n++}.json`);
      fs.writeFileSync(target, json, { mode: 0o600 });
      fs.symlinkSync(target, tmp);
      break;
    }
    case 'hardlink':
      fs.linkSync(extra.other!, tmp);
      break;
    default:
      fs.writeFileSync(tmp, json, { mode: 0o600 });
      if (c.make === 'mode') fs.chmodSync(tmp, c.mode!);
      if (c.make === 'owner') fs.chownSync(tmp, c.uid!, c.uid!);
  }
  fs.renameSync(tmp, final);
}

function mutate(base: Record<string, unknown>, c: FileCase): string {
  const obj: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(c.fields ?? {})) {
    if (v === null) delete obj[k];
    else obj[k] = v;
  }
  if (c.make === 'delete') delete obj[c.field!];
  if (c.make === 'upper-binding') obj.binding = String(obj.binding).toUpperCase();
  const json = JSON.stringify(obj, null, 2);
  if (c.make === 'truncate') return json.slice(0, Math.floor(json.length / 2));
  if (c.make === 'text') return c.text!;
  if (c.make === 'big') return json + ' '.repeat(1024 * 1024 + 10);
  return json;
}

describe('queue request corpus', () => {
  it('has the cases the issue asks for', () => {
    expect(corpus.requests.length).toBeGreaterThanOrEqual(25);
  });

  it.each(corpus.requests.map((c) => [title(c.name), c] as const))('%s', async (_n, c) => {
    const { paths, dir } = freshPaths();
    const id = 'bad1';
    const req = approvalRequest(id);
    let other: string | undefined;
    if (c.make === 'rename' || c.make === 'hardlink') {
      const o = approvalRequest('other1');
      other = requestPath(dir, 'other1');
      fs.writeFileSync(other, JSON.stringify(o), { mode: 0o600 });
      if (c.make === 'rename') fs.rmSync(other);
      plant(requestPath(dir, id), c, JSON.stringify(o), { other });
    } else {
      plant(requestPath(dir, id), c, mutate(req as unknown as Record<string, unknown>, c));
    }

    // The lister refuses it, saying why, and never shows it as live.
    const scan = scanDir(dir);
    expect(scan.live.map((r) => r.id)).not.toContain(id);
    const refused = scan.refused.find((r) => r.id === id);
    expect(refused, 'listed as refused').toBeDefined();
    expect(refused!.reason).toMatch(new RegExp(c.reason));

    // Answering it from a terminal is refused, audited, and writes nothing.
    const audit = new MemoryAudit();
    const attempt = answerFromTerminal({ paths, audit, ctx: { session: 'cli' }, id, verb: 'approval', body: { decision: 'always' }, stdinIsTTY: true, print: () => undefined, pickupMs: 200 });
    const err = await attempt.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(WispError);
    expect((err as Error).message).toMatch(/not trustworthy/);
    expect((err as Error).message).toMatch(new RegExp(c.reason));
    expect(audit.ofKind('escalation.settled')).toHaveLength(1);
    expect(audit.ofKind('escalation.settled')[0]!.details).toMatchObject({ channel: 'queue', escalationId: id, outcome: 'refused' });
    expect(fs.readdirSync(dir).filter((f) => f.includes('.answer'))).toEqual([]);
  });
});

describe('queue answer corpus', () => {
  it('has the cases the issue asks for', () => {
    expect(corpus.answers.length).toBeGreaterThanOrEqual(15);
  });

  it.each(corpus.answers.map((c) => [title(c.name), c] as const))('%s', async (_n, c) => {
    const { paths, dir } = freshPaths();
    const audit = new MemoryAudit();
    const channel = new QueueChannel({ paths, audit, pendingSeconds: 600, client: 'corpus', pollMs: 10 });
    const id = `wait${n}`;
    const verb = c.verb ?? 'approval';
    let settled: EscalationOutcome | undefined;
    const raised = channel
      .raise(
        verb === 'approval'
          ? { verb, request: { command: 'touch marker', line: 'touch marker', pattern: 'touch *', directory: root, level: 'moderate', reasons: ['modifies files'] } }
          : { verb, request: { question: 'Which one?' } },
        { session: 's', thread: 't1', timeoutMs: 60_000, escalationId: id },
      )
      .then((o) => (settled = o));
    await waitFor(() => fs.existsSync(requestPath(dir, id)));
    const read = readRequest(dir, id);
    if (!read.ok) throw new Error(read.reason);
    const nonce = '0123456789abcdef0123456789abcdef';
    const answer = { id, nonce, binding: read.value.binding, decision: 'once', via: 'cli', pid: process.pid, answeredAt: new Date().toISOString() };
    const json = c.make === 'big' ? JSON.stringify(answer) + ' '.repeat(16 * 1024) : mutate(answer, c);
    plant(answerPath(dir, id, nonce), c, json);

    const refusal = await waitFor(() => audit.ofKind('escalation.settled').find((e) => e.details.outcome === 'refused'));
    expect(String(refusal.details.reason)).toMatch(new RegExp(c.reason));
    // Still waiting: nothing decided, the request stands, the bad answer is gone.
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBeUndefined();
    expect(fs.existsSync(requestPath(dir, id))).toBe(true);
    expect(audit.ofKind('escalation.answered')).toHaveLength(0);

    // Nothing lost: the person's proper answer still gets through.
    const body = verb === 'approval' ? { decision: 'session' as const } : { text: 'the first' };
    expect(answerRequest(paths, read.value, body, { via: 'cli', answeredBy: 'human' }).ok).toBe(true);
    await raised;
    expect(settled).toEqual(verb === 'approval' ? { kind: 'approved', scope: 'session' } : { kind: 'answered', text: 'the first', answeredBy: 'human' });
    expect(fs.readdirSync(dir).filter((f) => !f.startsWith('.'))).toEqual([]);
  });
});
