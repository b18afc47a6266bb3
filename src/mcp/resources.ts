// Resources of `wisp mcp` (design.md §8): read-only views of the server for the calling agent and its person.
// Reads are not audited; each returns JSON (or Markdown for the tool catalogue).
import { resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { detectSandbox } from '../gate/sandbox.js';
import type { Session } from '../session/session.js';
import { catalogue, catalogueMarkdown } from '../tools/registry.js';
import type { McpChannel } from './mcp-channel.js';
import type { ThreadManager } from './threads.js';

export interface ResourceDeps {
  readonly session: Session;
  readonly threads: ThreadManager;
  /** The elicitation channel when the server uses it (for in-flight dialogs). */
  readonly channel?: McpChannel;
  /** Does the connected client render elicitation? */
  readonly clientElicits: () => boolean;
  readonly clientName: () => string | undefined;
}

export const RESOURCE_URIS = [
  'wisp://tools',
  'wisp://tools.md',
  'wisp://config',
  'wisp://status',
  'wisp://threads',
  'wisp://approvals',
  'wisp://pending',
] as const;

const json = (uri: URL, value: unknown) => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
});

export function registerResources(mcp: McpServer, deps: ResourceDeps): void {
  const { session, threads } = deps;

  mcp.registerResource(
    'tools',
    'wisp://tools',
    { title: 'Tool catalogue', description: 'The tools the model gets inside wisp, with JSON Schemas and limits', mimeType: 'application/json' },
    (uri) => json(uri, catalogue(session.tools)),
  );

  mcp.registerResource(
    'tools.md',
    'wisp://tools.md',
    { title: 'Tool catalogue (Markdown)', description: 'The same catalogue as wisp://tools, for reading', mimeType: 'text/markdown' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: catalogueMarkdown(session.tools) }] }),
  );

  mcp.registerResource(
    'config',
    'wisp://config',
    { title: 'Effective configuration', description: 'Defaults, user config and project config merged, as this server uses them', mimeType: 'application/json' },
    (uri) => json(uri, session.config),
  );

  mcp.registerResource(
    'status',
    'wisp://status',
    { title: 'Server status', description: 'Session, model, tools, threads, escalation channel, sandbox', mimeType: 'application/json' },
    async (uri) => {
      const sandbox = session.config.sandbox.enabled
        ? await detectSandbox()
        : { kind: 'none', works: false, detail: 'disabled in config (sandbox.enabled: false)' };
      return json(uri, {
        session: session.id,
        entryPoint: session.opts.entryPoint,
        model: session.model.id,
        tools: session.tools.map((t) => t.name),
        threadCount: threads.size,
        maxThreads: session.config.mcp.maxThreads,
        threadsURI: 'wisp://threads',
        channel: session.channel.name,
        outOfBand: session.config.escalation.outOfBand,
        client: deps.clientName() ?? null,
        clientElicitation: deps.clientElicits(),
        timeoutSeconds: session.config.escalation.timeoutSeconds,
        pendingSeconds: session.config.escalation.pendingSeconds,
        threshold: session.config.approval.threshold,
        sandbox: { enabled: session.config.sandbox.enabled, kind: sandbox.kind, works: sandbox.works, detail: sandbox.detail },
        network: session.config.sandbox.allowNetwork,
        sessionApprovals: session.sessionApprovals.size,
        launchDir: session.launchDir,
      });
    },
  );

  mcp.registerResource(
    'threads',
    'wisp://threads',
    { title: 'Threads', description: 'Open threads, least recently used first, with their turn counts', mimeType: 'application/json' },
    (uri) => json(uri, { threads: threads.list(), maxThreads: session.config.mcp.maxThreads }),
  );

  mcp.registerResource(
    'approvals',
    'wisp://approvals',
    { title: 'Stored approvals', description: 'This project\'s and the always approvals from approvals.json, plus this session\'s answers', mimeType: 'application/json' },
    (uri) => {
      let stored: unknown[] = [];
      let error: string | undefined;
      try {
        // Only this project's approvals (and `always` ones): another project's list is not this client's business.
        const project = resolve(session.launchDir);
        stored = session.store.list().filter((e) => e.scope === 'always' || (e.workingDirectory !== undefined && resolve(e.workingDirectory) === project));
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      const here = resolve(session.launchDir);
      const current = session.sessionApprovals.list().filter((a) => resolve(a.directory) === here);
      return json(uri, { stored, session: current, ...(error ? { error } : {}) });
    },
  );

  mcp.registerResource(
    'pending',
    'wisp://pending',
    { title: 'Waiting escalations', description: 'This server\'s pending inquiries, deferred approvals and dialogs in flight', mimeType: 'application/json' },
    (uri) => {
      const inquiries = session.pendingInquiries.list().map((p) => ({
        id: p.id,
        verb: p.verb,
        question: p.question,
        thread: p.thread,
        expiresAt: new Date(p.expiresAt).toISOString(),
        answer: `respond on thread ${p.thread} with answers: [{"id": "${p.id}", "text": "…"}]`,
      }));
      const approvals = (session.resultChannel?.approvals() ?? []).map((a) => ({
        id: a.id,
        verb: 'approval' as const,
        command: a.command,
        thread: a.thread,
        directory: a.directory,
        expiresAt: new Date(a.expiresAt).toISOString(),
        answer: `wisp approvals approve ${a.id}`,
      }));
      const waiting = deps.channel?.waiting() ?? [];
      // Under `--escalation queue` the session's own queue holds the waiting requests.
      const queued = session.queue?.queue.pendingIds() ?? [];
      return json(uri, { inquiries, approvals, waiting, queued });
    },
  );
}
