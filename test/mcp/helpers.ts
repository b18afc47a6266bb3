// A wisp MCP server and a real SDK client over an in-memory transport pair, in a fresh WISP_HOME and work
// directory, with a script model. The client's elicitation handler is the test's (or none: no capability).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ElicitRequestSchema,
  type CallToolResult,
  type ClientNotification,
  type ClientRequest,
  type ElicitRequest,
  type ElicitRequestFormParams,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { MemoryAudit, type AuditEvent } from '../../src/audit/kinds.js';
import { defaultConfig, type Config } from '../../src/config/schema.js';
import type { ChannelName } from '../../src/core/channels.js';
import { createWispMcp, type RespondStructured, type WispMcp } from '../../src/mcp/server.js';
import type { ChatMessage, GenerateOptions, LanguageModel, ModelReply } from '../../src/model/types.js';
import { wispPaths, type WispPaths } from '../../src/core/paths.js';
import { openSession } from '../../src/session/session.js';

export type ScriptResponse = { text?: string; toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>; delayMs?: number };
export const run = (command: string): ScriptResponse => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] });
export const ask = (question: string, schema?: Record<string, unknown>): ScriptResponse => ({
  toolCalls: [{ name: 'ask_operator', arguments: { question, ...(schema ? { schema } : {}) } }],
});
export const say = (text: string): ScriptResponse => ({ text });

export type FormParams = ElicitRequestFormParams;
export type ElicitHandler = (req: ElicitRequest, extra: RequestHandlerExtra<ClientRequest, ClientNotification>) => Promise<ElicitResult>;

export interface Dirs {
  readonly root: string;
  readonly home: string;
  readonly work: string;
  readonly paths: WispPaths;
  cleanup(): void;
}

export function makeDirs(): Dirs {
  const root = mkdtempSync(join(tmpdir(), 'wisp-mcp-'));
  const home = join(root, 'home');
  const work = join(root, 'work');
  for (const d of [home, work]) {
    mkdirSync(d, { recursive: true, mode: 0o700 });
    chmodSync(d, 0o700);
  }
  return { root, home, work, paths: wispPaths(home), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export function writeScript(dirs: Dirs, responses: ScriptResponse[], name = 'script'): string {
  const file = join(dirs.root, `${name}-${Math.random().toString(16).slice(2, 8)}.json`);
  writeFileSync(file, JSON.stringify({ responses }));
  return file;
}

export interface Harness {
  readonly dirs: Dirs;
  readonly server: WispMcp;
  readonly client: Client;
  readonly audit: MemoryAudit;
  /** Elicitation (form) requests the client received. */
  readonly elicitations: FormParams[];
  /** Models handed out to conversations (a recorder around each fork). */
  readonly models: RecordingModel[];
  respond(args: Record<string, unknown>, opts?: { signal?: AbortSignal; onprogress?: (p: { progress: number; message?: string }) => void }): Promise<CallToolResult & { structuredContent: RespondStructured }>;
  events(kind: AuditEvent['kind']): AuditEvent[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly responses: ScriptResponse[];
  readonly channel?: ChannelName;
  /** Advertise elicitation and answer with this handler; undefined = the client has no elicitation. */
  readonly elicit?: ElicitHandler;
  readonly config?: (c: Config) => void;
  readonly dirs?: Dirs;
  readonly progressIntervalMs?: number;
  readonly taskPollIntervalMs?: number;
  readonly notice?: (line: string) => void;
}

export async function startHarness(opts: HarnessOptions): Promise<Harness> {
  const dirs = opts.dirs ?? makeDirs();
  const config = defaultConfig();
  config.escalation.timeoutSeconds = 30;
  opts.config?.(config);
  const script = writeScript(dirs, opts.responses);
  const audit = new MemoryAudit();
  const models: RecordingModel[] = [];
  const channel = opts.channel ?? 'elicitation';
  const server = await createWispMcp({
    config,
    channel,
    ...(opts.progressIntervalMs !== undefined ? { progressIntervalMs: opts.progressIntervalMs } : {}),
    ...(opts.taskPollIntervalMs !== undefined ? { taskPollIntervalMs: opts.taskPollIntervalMs } : {}),
    ...(opts.notice ? { notice: opts.notice } : {}),
    openSession: async (faceChannel, wrapChannel) => {
      const session = await openSession({
        entryPoint: 'mcp',
        cwd: dirs.work,
        home: dirs.home,
        config,
        channel,
        client: 'mcp-test',
        audit,
        modelSpec: `script:${script}`,
        warn: () => undefined,
        ...(faceChannel ? { faceChannel } : {}),
        ...(wrapChannel ? { wrapChannel } : {}),
      });
      // Record what each conversation's model is given.
      const base = session.model;
      (session as { model: LanguageModel }).model = {
        id: base.id,
        generate: (m, o) => base.generate(m, o),
        fork: () => {
          const r = new RecordingModel(base.fork());
          models.push(r);
          return r;
        },
      };
      return session;
    },
  });
  const elicitations: FormParams[] = [];
  const client = new Client({ name: 'wisp-test', version: '1' }, { capabilities: opts.elicit ? { elicitation: { form: {} } } : {} });
  if (opts.elicit) {
    const handler = opts.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
      elicitations.push(req.params as FormParams);
      return handler(req, extra);
    });
  }
  const [ct, st] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(st), client.connect(ct)]);
  let closed = false;
  return {
    dirs,
    server,
    client,
    audit,
    elicitations,
    models,
    respond: (args, o = {}) =>
      client.callTool({ name: 'respond', arguments: args }, undefined, {
        timeout: 120_000,
        ...(o.signal ? { signal: o.signal } : {}),
        ...(o.onprogress ? { onprogress: o.onprogress } : {}),
      }) as Promise<CallToolResult & { structuredContent: RespondStructured }>,
    events: (kind) => audit.ofKind(kind),
    async close() {
      if (closed) return;
      closed = true;
      await client.close().catch(() => undefined);
      await server.close();
      if (!opts.dirs) dirs.cleanup();
    },
  };
}

/** A model wrapper that keeps a copy of every message list it was given. */
export class RecordingModel implements LanguageModel {
  readonly calls: ChatMessage[][] = [];
  constructor(private readonly inner: LanguageModel) {}
  get id(): string {
    return this.inner.id;
  }
  generate(messages: ChatMessage[], opts: GenerateOptions): Promise<ModelReply> {
    this.calls.push(structuredClone(messages));
    return this.inner.generate(messages, opts);
  }
  fork(): LanguageModel {
    return new RecordingModel(this.inner.fork());
  }
}

export const accept = (scope?: string): ElicitHandler => async () => (scope ? { action: 'accept', content: { scope } } : { action: 'accept' });

/** A handler that never answers; it resolves (as cancel) only when the server withdraws the request. */
export function hanging(onWithdrawn?: (reason: unknown) => void): ElicitHandler {
  return (_req, extra) =>
    new Promise((resolve) => {
      extra.signal.addEventListener('abort', () => {
        onWithdrawn?.(extra.signal.reason);
        resolve({ action: 'cancel' });
      });
    });
}

export function pendingFiles(dirs: Dirs): string[] {
  return existsSync(dirs.paths.pending) ? readdirSync(dirs.paths.pending).filter((f) => !f.startsWith('.')) : [];
}

export function storedApprovals(dirs: Dirs): Array<Record<string, unknown>> {
  if (!existsSync(dirs.paths.approvals)) return [];
  const value = JSON.parse(readFileSync(dirs.paths.approvals, 'utf8')) as unknown;
  return Array.isArray(value) ? (value as Array<Record<string, unknown>>) : ((value as { approvals?: Array<Record<string, unknown>> }).approvals ?? []);
}

export async function waitFor<T>(probe: () => T | undefined | false, timeoutMs = 10_000, stepMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** The text of a resource, and the same parsed as JSON. */
export async function readText(h: Harness, uri: string): Promise<string> {
  const first = (await h.client.readResource({ uri })).contents[0];
  return first && 'text' in first ? first.text : '';
}
export async function readJson<T = Record<string, unknown>>(h: Harness, uri: string): Promise<T> {
  return JSON.parse(await readText(h, uri)) as T;
}
