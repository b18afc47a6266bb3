// Issue 14 point 10: a revocation made in another terminal (`wisp approvals revoke` / `clear`, the real CLI) reaches
// a running chat — its session approvals of that pattern are dropped and the transcript says so — and the chat's
// own `/approvals revoke` writes the same `approval.revoked` event as the CLI.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/schema.js';
import { ApprovalCache } from '../../src/gate/session-approvals.js';
import { ApprovalStore } from '../../src/gate/store.js';
import { wispPaths } from '../../src/core/paths.js';
import { openSession } from '../../src/session/session.js';
import { App } from '../../ui/App.js';
import { DialogStore } from '../../ui/dialog-store.js';
import { SessionEngine } from '../../ui/engine.js';
import { Feed } from '../../ui/feed.js';
import { RevocationWatch } from '../../ui/revocation-watch.js';
import { BIN, freshHome, wisp } from '../helpers/cli.js';
import { FakeEngine, until } from './helpers.js';

let watches: RevocationWatch[] = [];
afterEach(() => {
  cleanup();
  for (const w of watches) w.close();
  watches = [];
});

function stored(home: string, pattern: string, dir: string) {
  return new ApprovalStore(wispPaths(home).approvals).add({
    pattern,
    workingDirectory: dir,
    scope: 'project',
    level: 'moderate',
    persistDays: 30,
    source: 'test',
  });
}

/** A chat's App fed by a revocation watch over `home`'s audit log, with session approvals in hand. */
async function chatWatching(home: string) {
  const cache = new ApprovalCache();
  cache.add('/w', 'touch *');
  cache.add('/v', 'touch *');
  cache.add('/w', 'ls *');
  const feed = new Feed();
  const watch = new RevocationWatch({ auditFile: wispPaths(home).audit, sessionApprovals: cache, report: (e) => feed.emit(e), pollMs: 30 });
  watches.push(watch);
  // The log exists before the watch starts (any wisp command writes it), so "from the end" is well defined.
  watch.start();
  const r = render(<App engine={new FakeEngine()} store={new DialogStore()} feed={feed} bell={() => {}} quietMs={0} />);
  await new Promise((res) => setTimeout(res, 100));
  return { cache, ...r };
}

describe.skipIf(!existsSync(BIN))('a revocation from another terminal', () => {
  it('wisp approvals revoke ID: the session approvals of that pattern are dropped, and the chat says so', async () => {
    const { dir, home } = freshHome();
    const a = stored(home, 'touch *', '/w');
    wisp(['approvals', 'list'], { cwd: dir, home }); // the log exists
    const { cache, lastFrame } = await chatWatching(home);
    const r = wisp(['approvals', 'revoke', a.id], { cwd: dir, home });
    expect(r.status).toBe(0);
    await until(() => lastFrame()!.includes('revoked in another terminal'), 10_000);
    expect(lastFrame()!.replace(/\s+/g, ' ')).toContain(
      `approval ${a.id} (touch *) was revoked in another terminal: this chat's session approvals of it (in /w, /v) are dropped too`,
    );
    expect(cache.list()).toEqual([{ directory: '/w', pattern: 'ls *' }]);
  });

  it('wisp approvals clear: every session approval is dropped', async () => {
    const { dir, home } = freshHome();
    stored(home, 'make *', '/w');
    wisp(['approvals', 'list'], { cwd: dir, home });
    const { cache, lastFrame } = await chatWatching(home);
    expect(wisp(['approvals', 'clear'], { cwd: dir, home }).status).toBe(0);
    await until(() => lastFrame()!.includes('cleared in another terminal'), 10_000);
    expect(lastFrame()!.replace(/\s+/g, ' ')).toContain("stored approvals were cleared in another terminal: this chat's 3 session approvals are dropped too");
    expect(cache.size).toBe(0);
  });
});

describe.skipIf(!existsSync(BIN))("the chat's own /approvals revoke", () => {
  it('writes the same approval.revoked event as wisp approvals revoke, drops the session approval, and is not reported twice', async () => {
    const { dir, home } = freshHome();
    const viaCli = stored(home, 'touch *', dir);
    const viaChat = stored(home, 'touch *', join(dir, 'sub'));
    expect(wisp(['approvals', 'revoke', viaCli.id], { cwd: dir, home }).status).toBe(0);

    const session = await chatSession(dir, home);
    session.sessionApprovals.add(dir, 'touch *');
    const feed = new Feed();
    const heard: string[] = [];
    feed.subscribe((e) => heard.push(e.kind === 'info' ? e.text : ''));
    const watch = new RevocationWatch({ auditFile: session.paths.audit, sessionApprovals: session.sessionApprovals, report: (e) => feed.emit(e), pollMs: 30 });
    watches.push(watch);
    watch.start();
    const engine = new SessionEngine(session, { label: 'off', ok: false }, (ids) => watch.mine(ids));
    const out = engine.slash(`/approvals revoke ${viaChat.id}`);
    expect(out).toEqual({ kind: 'print', text: `revoked ${viaChat.id} and this chat's session approval of touch * (${dir})` });
    expect(session.sessionApprovals.size).toBe(0);

    const events = readFileSync(wispPaths(home).audit, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; details: Record<string, unknown> })
      .filter((e) => e.kind === 'approval.revoked');
    expect(events).toHaveLength(2);
    const [cli, chat] = events;
    expect(cli!.details).toEqual({ action: 'revoke', ids: [viaCli.id], pattern: 'touch *', scope: 'project' });
    expect(chat!.details).toEqual({ action: 'revoke', ids: [viaChat.id], pattern: 'touch *', scope: 'project' });
    await new Promise((res) => setTimeout(res, 300));
    expect(heard.filter((t) => t.includes('another terminal'))).toEqual([]);
    session.end('done');
  });

  it('/approvals revoke s1 (a session approval) is audited with scope session, and another chat keeps its own', async () => {
    const { dir, home } = freshHome();
    wisp(['approvals', 'list'], { cwd: dir, home }); // the log exists
    const other = await chatWatching(home); // another chat, with session approvals of touch * and ls *
    const session = await chatSession(dir, home);
    session.sessionApprovals.add(dir, 'touch *');
    const engine = new SessionEngine(session, { label: 'off', ok: false }, () => {});
    const out = engine.slash('/approvals revoke s1');
    expect(out).toEqual({ kind: 'print', text: `revoked session approval s1 (touch * in ${dir})` });
    expect(session.sessionApprovals.size).toBe(0);
    const events = readFileSync(wispPaths(home).audit, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; details: Record<string, unknown> })
      .filter((e) => e.kind === 'approval.revoked');
    expect(events.map((e) => e.details)).toEqual([{ action: 'revoke', ids: ['s1'], pattern: 'touch *', scope: 'session' }]);
    await new Promise((res) => setTimeout(res, 300));
    expect(other.cache.size).toBe(3);
    expect(other.lastFrame()).not.toContain('another terminal');
    session.end('done');
  });
});

/** A chat's session (no dialogs) with a one-reply script model. */
function chatSession(dir: string, home: string) {
  return openSession({ entryPoint: 'chat', cwd: dir, home, config: ConfigSchema.parse({}), channel: 'deny', modelSpec: `script:${writeScript(dir)}` });
}

function writeScript(dir: string): string {
  const p = join(dir, 'script.json');
  writeFileSync(p, JSON.stringify({ responses: [{ text: 'ok' }] }));
  return p;
}
