// The body of `wisp chat`, loaded only when the command runs (it pulls in Ink and React). The input line is drawn
// first and takes keys at once; the session — the gate's parser, the model, the audit log, the MCP servers, the
// sandbox check — starts behind it, from modules imported only then (ADR 0056).
import { render } from 'ink';
import React from 'react';
import { loadConfig, type LoadedConfig } from '../src/config/load.js';
import { wispHome } from '../src/core/paths.js';
import { historyFile, PromptHistory } from '../src/session/prompt-history.js';
import { chooseModel, modelConfigured } from '../src/model/default-order.js';
import type { Session } from '../src/session/session.js';
import { findResume, type Resumed } from './chat-resume.js';
import { App } from '../ui/App.js';
import { DeferredEngine } from '../ui/deferred-engine.js';
import { DialogStore } from '../ui/dialog-store.js';
import type { SandboxState, SessionEngine } from '../ui/engine.js';
import { Feed } from '../ui/feed.js';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from '../ui/use-keys.js';
import type { QueueWatch } from '../ui/queue-watch.js';
import { ReflowSafeStdout } from '../ui/reflow.js';
import type { RevocationWatch } from '../ui/revocation-watch.js';
import type { EntryBody } from '../ui/transcript-entries.js';
import type { ChatFlags } from './chat-flags.js';
import { offerDefaultModel } from './models-offer.js';
import { resolveChannel } from './options.js';
import type { ChannelName } from '../src/core/channels.js';

export async function runChat(flags: ChatFlags): Promise<number> {
  const cwd = process.cwd();
  const home = wispHome();
  // Which saved conversation to go on with, if any: before anything else starts, so a bad choice changes nothing.
  const resume = await findResume(flags, home, cwd);
  if (resume === 'left') return 0;
  const loaded = loadConfig({ home, cwd });
  const notes: EntryBody[] = loaded.warnings.map((text) => ({ kind: 'error', text }));
  // The chat is the person's own terminal, so its dialog is the whole of the terminal channel: no queue leg is
  // raced beside it (ADR 0007). `--escalation queue` files requests instead, and this chat shows those too.
  const { channel, notice, notUsed } = resolveChannel({
    ...(flags.yes ? { yes: true } : {}),
    ...(flags.escalation !== undefined ? { flag: flags.escalation } : {}),
    ...(loaded.config.escalation.channel ? { configured: loaded.config.escalation.channel } : {}),
    face: 'wisp chat',
  });
  // In the transcript, where this chat's other start-up notes are: its stderr is the screen Ink draws on.
  if (notice) notes.push({ kind: 'error', text: notice });
  // No model configured: Ollama if it answers, else a GGUF in $WISP_HOME/models, else offer the download (ADR 0051).
  let modelSpec = flags.model;
  if (!modelConfigured(flags.model, loaded.config)) {
    const chosen = await chooseModel(undefined, loaded.config, home);
    if (chosen.spec !== undefined) modelSpec = chosen.spec;
    else {
      const offered = await offerDefaultModel(loaded.config, home);
      if (typeof offered === 'number') return offered;
      modelSpec = offered;
    }
  }
  const store = new DialogStore();
  const feed = new Feed();
  const history = PromptHistory.load(historyFile(home));
  const initial: EntryBody[] = [...(resume ? [...resume.chat.shown, ...resume.notes] : []), ...notes];
  if (history.warning) initial.push({ kind: 'error', text: history.warning });
  // Everything below the input line starts now, behind it; a prompt sent meanwhile waits in the App's queue.
  const started = startSession({ flags, cwd, home, loaded, channel, store, feed, resume, ...(modelSpec ? { modelSpec } : {}), ...(notUsed ? { notUsed } : {}) });
  const engine = new DeferredEngine(
    started.then((s) => s.engine),
    { model: modelSpec ?? 'starting', channel, sandbox: 'starting…', sandboxOk: true },
    loaded.config.approval.persistDays,
    (text) => feed.emit({ kind: 'error', text }),
  );
  // Bracketed paste: the terminal marks pasted text, so a paste is kept as text (its line breaks too) and never
  // taken as keys (ui/use-keys.ts). Turned off again however the chat ends.
  const pasteOff = () => {
    if (process.stdout.isTTY) process.stdout.write(BRACKETED_PASTE_OFF);
  };
  if (process.stdout.isTTY) process.stdout.write(BRACKETED_PASTE_ON);
  process.once('exit', pasteOff);
  // Ink writes through a stream that erases the rows a narrowing re-wrapped (ui/reflow.ts): no duplicate frame.
  const stdout = new ReflowSafeStdout(process.stdout);
  const instance = render(<App engine={engine} store={store} feed={feed} initial={initial} history={history} />, {
    exitOnCtrlC: false,
    stdout: stdout as unknown as NodeJS.WriteStream,
  });
  // A start that fails ends the chat with its error, as it did when the session opened before the first frame.
  let failure: { err: unknown } | undefined;
  started.catch((err: unknown) => {
    failure = { err };
    instance.unmount();
  });
  let running: Started | undefined;
  try {
    await instance.waitUntilExit();
    // Left before the session was open (Ctrl+D at once): it still ends in order, audit record included.
    running = await started.catch(() => undefined);
  } finally {
    running?.watch.stop();
    running?.revocations.close();
    store.closeAll();
    pasteOff();
    process.removeListener('exit', pasteOff);
    stdout.dispose();
  }
  if (failure) throw failure.err;
  running!.session.end('done');
  return 0;
}

interface Started {
  readonly session: Session;
  readonly engine: SessionEngine;
  readonly watch: QueueWatch;
  readonly revocations: RevocationWatch;
}

interface StartOptions {
  readonly flags: ChatFlags;
  readonly cwd: string;
  readonly home: string;
  readonly loaded: LoadedConfig;
  readonly channel: ChannelName;
  readonly store: DialogStore;
  readonly feed: Feed;
  readonly resume: Resumed | undefined;
  readonly modelSpec?: string;
  /** Config `escalation.channel`, when this chat could not use it. */
  readonly notUsed?: ChannelName;
}

/** Opens the session and what watches it; the modules it needs are imported here, after the first frame. */
async function startSession(o: StartOptions): Promise<Started> {
  const { flags, cwd, home, loaded, channel, store, feed, resume, modelSpec, notUsed } = o;
  const [{ initParser }, { openSession, exitReason }, { SessionEngine }, { QueueWatch }, { RevocationWatch }, { TerminalChannel }] = await Promise.all([
    import('../src/gate/parse.js'),
    import('../src/session/session.js'),
    import('../ui/engine.js'),
    import('../ui/queue-watch.js'),
    import('../ui/revocation-watch.js'),
    import('../ui/terminal-channel.js'),
  ]);
  await initParser(); // the gate parses synchronously once this is done (idempotent)
  const notes: EntryBody[] = [];
  const session = await openSession({
    entryPoint: 'chat',
    cwd,
    home,
    config: loaded.config,
    channel,
    ...(notUsed ? { channelNotUsed: notUsed } : {}),
    ...(channel === 'terminal' ? { faceChannel: () => new TerminalChannel(store) } : {}),
    client: 'chat',
    warn: (text) => notes.push({ kind: 'error', text }),
    ...(modelSpec ? { modelSpec } : {}),
    ...(flags.tool && flags.tool.length ? { toolNames: flags.tool } : {}),
    ...(flags.tools === false ? { noTools: true } : {}),
  });
  // A closed terminal or SIGTERM ends the process from main: the session still ends, settling a dialog left open.
  process.once('exit', (status) => session.end(exitReason(status)));

  try {
    const revocations = new RevocationWatch({
      auditFile: session.paths.audit,
      sessionApprovals: session.sessionApprovals,
      report: (e) => feed.emit(e),
    });
    const engine = new SessionEngine(session, await sandboxState(session.config.sandbox.enabled), (ids) => revocations.mine(ids), {
      home,
      ...(resume ? { resume: resume.chat } : {}),
    });
    const watch = new QueueWatch({ paths: session.paths, store, report: (e) => feed.emit(e), audit: session.audit, auditCtx: session.ctx });
    const timeout = session.config.escalation.timeoutSeconds;
    feed.emit({
      kind: 'info',
      text:
        `wisp chat · ${engine.info().model} · escalation ${channel}` +
        (channel === 'terminal' ? ` (dialogs here; ${timeout === 0 ? 'no time limit' : `unanswered after ${timeout}s = refused`})` : '') +
        ' · /help for commands',
    });
    for (const note of notes) feed.emit(note);
    watch.start();
    revocations.start();
    return { session, engine, watch, revocations };
  } catch (err) {
    store.closeAll();
    session.fail(err);
    throw err;
  }
}

async function sandboxState(enabled: boolean): Promise<SandboxState> {
  if (!enabled) return { label: 'off', ok: false };
  const { detectSandbox } = await import('../src/gate/sandbox.js');
  const found = await detectSandbox();
  return found.works ? { label: found.kind, ok: true } : { label: `${found.kind} not working`, ok: false };
}
