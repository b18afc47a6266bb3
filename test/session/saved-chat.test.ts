// Saved conversations (issue 14 point 7): written as the chat goes, 0600, read back whole and checked — a tampered
// or cut file is refused with the line that is wrong and left unchanged; nothing about approvals is ever written.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSaved, loadSaved, SavedChat, SavedChatError, savedFile, sessionsDir } from '../../src/session/saved-chat.js';

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wisp-saved-'));
  chmodSync(dir, 0o700);
  return dir;
}

function written(h: string, now = new Date('2026-12-01T10:00:00Z')): SavedChat {
  const chat = SavedChat.create(h, { directory: '/work/p', model: 'script:/s.json', now });
  chat.shown([{ kind: 'prompt', text: 'make a marker' }]);
  chat.messages([
    { role: 'system', content: 'never saved' },
    { role: 'user', content: 'make a marker' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'run_command', arguments: { command: 'touch m' } }] },
    { role: 'tool', toolCallId: 'call_1', name: 'run_command', content: 'exit 0' },
    { role: 'assistant', content: 'Done.' },
  ]);
  chat.shown([
    { kind: 'gate', tool: 'run_command', subject: 'touch m', allowed: true, note: 'approved (session)' },
    { kind: 'reply', text: 'Done.' },
    { kind: 'info', text: 'slash output is not kept' },
  ]);
  return chat;
}

function expectRefused(file: string, pattern: RegExp) {
  const before = readFileSync(file, 'utf8');
  expect(() => loadSaved(file)).toThrow(SavedChatError);
  expect(() => loadSaved(file)).toThrow(pattern);
  expect(readFileSync(file, 'utf8')).toBe(before);
}

describe('saved conversations', () => {
  it('are written 0600 in sessions/ and read back: the context without the system prompt, the transcript as shown', () => {
    const h = home();
    const chat = written(h);
    expect(statSync(chat.file).mode & 0o777).toBe(0o600);
    expect(chat.file.startsWith(sessionsDir(h))).toBe(true);
    const loaded = loadSaved(chat.file);
    expect(loaded.header).toMatchObject({ id: chat.id, directory: '/work/p', model: 'script:/s.json' });
    expect(loaded.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(loaded.shown.map((e) => e.kind)).toEqual(['prompt', 'gate', 'reply']);
    expect(readFileSync(chat.file, 'utf8')).not.toContain('never saved');
  });

  it('keeps a failed tool call\'s line, so a resumed chat still shows that the edit did not happen (ADR 0097)', () => {
    const h = home();
    const chat = written(h);
    chat.shown([{ kind: 'failed', tool: 'edit_file', error: 'find text not found in /work/p/a.txt' }]);
    expect(loadSaved(chat.file).shown.at(-1)).toEqual({ kind: 'failed', tool: 'edit_file', error: 'find text not found in /work/p/a.txt' });
  });

  it('a chat where nothing was said leaves no file', () => {
    const h = home();
    const chat = SavedChat.create(h, { directory: '/w', model: 'm' });
    chat.messages([{ role: 'system', content: 'x' }]);
    chat.shown([{ kind: 'info', text: 'hello' }]);
    expect(() => statSync(chat.file)).toThrow();
  });

  it('holds no approval: the words "approved (session)" are a line of text, never a record of an approval', () => {
    const h = home();
    const chat = written(h);
    const records = readFileSync(chat.file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(new Set(records.map((r) => r.type))).toEqual(new Set(['start', 'message', 'shown']));
  });

  it('attack: a line edited into something else is refused with its number, and the file is left as it is', () => {
    const h = home();
    const chat = written(h);
    const lines = readFileSync(chat.file, 'utf8').split('\n');
    lines[2] = JSON.stringify({ type: 'message', message: { role: 'user', content: 'x', approved: 'always' } });
    writeFileSync(chat.file, lines.join('\n'));
    expectRefused(chat.file, /line 3 is not a saved conversation record/);
  });

  it('attack: a record of a kind it does not know (an approval smuggled in) is refused', () => {
    const h = home();
    const chat = written(h);
    writeFileSync(chat.file, readFileSync(chat.file, 'utf8') + JSON.stringify({ type: 'approval', pattern: 'rm *', scope: 'session' }) + '\n');
    expectRefused(chat.file, /line 9 is not a saved conversation record \(type: /);
  });

  it('a file cut short — mid-line, or between a tool call and its result — is refused', () => {
    const h = home();
    const chat = written(h);
    const text = readFileSync(chat.file, 'utf8');
    writeFileSync(chat.file, text.slice(0, -10));
    expectRefused(chat.file, /cut short \(its last line is not whole\)/);
    const lines = text.trim().split('\n');
    writeFileSync(chat.file, lines.slice(0, 4).join('\n') + '\n');
    expectRefused(chat.file, /cut short \(tool call call_1 has no result\)/);
  });

  it('a tool result for a call never asked, a second start, or a file named for another id is refused', () => {
    const h = home();
    const chat = written(h);
    const lines = readFileSync(chat.file, 'utf8').trim().split('\n');
    writeFileSync(chat.file, [...lines, JSON.stringify({ type: 'message', message: { role: 'tool', toolCallId: 'call_9', name: 'x', content: '' } })].join('\n') + '\n');
    expectRefused(chat.file, /answers tool call call_9, which was not asked for/);
    writeFileSync(chat.file, [...lines, lines[0]].join('\n') + '\n');
    expectRefused(chat.file, /starts a second conversation/);
    const other = savedFile(h, '20261201T100000-00000000')!;
    writeFileSync(other, lines.join('\n') + '\n', { mode: 0o600 });
    expectRefused(other, /names conversation .* not this file/);
  });

  it('a file others can read, or a symbolic link, is refused', () => {
    const h = home();
    const chat = written(h);
    chmodSync(chat.file, 0o644);
    expectRefused(chat.file, /mode is 0644; it must be 0600/);
    chmodSync(chat.file, 0o600);
    const link = savedFile(h, '20261201T100000-11111111')!;
    symlinkSync(chat.file, link);
    expect(() => loadSaved(link)).toThrow(/symbolic link/);
  });

  it('an id is a saved-conversation id or nothing: no path can be named through it', () => {
    expect(savedFile('/h', '../../etc/passwd')).toBeUndefined();
    expect(savedFile('/h', '20261201T100000-1a2b3c4d')).toBe(join('/h', 'sessions', '20261201T100000-1a2b3c4d.jsonl'));
  });

  it('listSaved: newest first, with the first prompt; a file that fails its checks is listed apart', () => {
    const h = home();
    const older = written(h, new Date('2026-11-01T10:00:00Z'));
    const newer = written(h, new Date('2026-12-01T10:00:00Z'));
    utimesSync(older.file, new Date('2026-11-01T10:00:00Z'), new Date('2026-11-01T10:00:00Z'));
    const bad = savedFile(h, '20261201T110000-22222222')!;
    mkdirSync(sessionsDir(h), { recursive: true });
    writeFileSync(bad, 'not json\n', { mode: 0o600 });
    const list = listSaved(h);
    expect(list.chats.map((c) => c.file)).toEqual([newer.file, older.file]);
    expect(list.chats[0]).toMatchObject({ title: 'make a marker', prompts: 1 });
    expect(list.unreadable).toHaveLength(1);
    expect(list.unreadable[0]!.reason).toMatch(/line 1 is not JSON/);
  });

  it('after a write fails, it says so once and writes nothing more', () => {
    const h = home();
    const chat = SavedChat.create(h, { directory: '/w', model: 'm' });
    mkdirSync(sessionsDir(h), { recursive: true });
    mkdirSync(chat.file); // a directory where the file should go
    expect(chat.shown([{ kind: 'prompt', text: 'a' }])).toMatch(/no longer saved/);
    expect(chat.shown([{ kind: 'prompt', text: 'b' }])).toBeUndefined();
  });
});
