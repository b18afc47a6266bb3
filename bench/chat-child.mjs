// The process of the chat benchmark (bench/chat.ts), plain JavaScript over dist/ so that its memory is the chat's
// and not a TypeScript loader's: renders the chat App with Ink (as `wisp chat` does: not Ink's debug mode, which
// would redraw the whole transcript every frame) into a fake terminal, with N transcript items, then types keys one
// at a time and times each from the key reaching stdin to the frame that shows it. Prints one JSON line.
// The items arrive as in a long session, a few at a time through the App's feed (MODE `feed`), or all at once as
// the App's initial transcript (MODE `initial`, the worst case for memory: one frame lays them all out).
//   node --expose-gc bench/chat-child.mjs ITEMS KEYS [feed|initial]
import { EventEmitter } from 'node:events';

const items = Number(process.argv[2] ?? '1000');
const keys = Number(process.argv[3] ?? '40');
const mode = process.argv[4] ?? 'feed';
delete process.env.CI; // Ink draws no live frames when it thinks it runs in CI
delete process.env.CONTINUOUS_INTEGRATION;

const dist = new URL('../dist/', import.meta.url);
const React = (await import('react')).default;
const { render } = await import('ink');
const { App } = await import(new URL('ui/App.js', dist).href);
const { DialogStore } = await import(new URL('ui/dialog-store.js', dist).href);
const now = () => Number(process.hrtime.bigint()) / 1e6;

class FakeStdout extends EventEmitter {
  isTTY = true;
  columns = 120;
  rows = 40;
  onWrite = undefined;
  bytes = 0;
  write(data) {
    this.bytes += data.length;
    this.onWrite?.(String(data));
    return true;
  }
}
class FakeStdin extends EventEmitter {
  isTTY = true;
  data = null;
  write(data) {
    this.data = data;
    this.emit('readable');
    this.emit('data', data);
  }
  read() {
    const d = this.data;
    this.data = null;
    return d;
  }
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
}

const engine = {
  persistDays: 30,
  info: () => ({ model: 'script:/tmp/bench.json', channel: 'terminal', sandbox: 'bwrap', sandboxOk: true }),
  turn: async () => ({ text: 'ok' }),
  slash: () => ({ kind: 'print', text: 'ok' }),
};

/** A transcript as a long session leaves it: prompts, replies, gate lines, command output, notes. */
function transcript(n) {
  const out = [];
  for (let i = 0; out.length < n; i++) {
    out.push({ kind: 'prompt', text: `step ${i}: run the tests for the gate and fix what fails` });
    out.push({ kind: 'reply', text: `Running the gate tests (round ${i}); I will read the failures and fix them one by one.` });
    out.push({ kind: 'gate', tool: 'run_command', subject: 'npx vitest run test/gate', allowed: true, notes: undefined, note: 'safe by rules' });
    out.push({ kind: 'output', text: ' ✓ test/gate/parse.test.ts (120 tests) 840ms\n ✓ test/gate/policy.test.ts (58 tests)\n Test Files  11 passed (11)' });
    out.push({ kind: 'info', text: `tokens: ${1000 + i}` });
  }
  return out.slice(0, n);
}

const stdout = new FakeStdout();
const stdin = new FakeStdin();
const stderr = new FakeStdout();
const t0 = now();
const listeners = new Set();
const feed = { subscribe: (l) => (listeners.add(l), () => listeners.delete(l)) };
const all = transcript(items);
const props = { engine, store: new DialogStore(), bell: () => {}, feed, ...(mode === 'initial' ? { initial: all } : {}) };
const instance = render(React.createElement(App, props), { stdout, stdin, stderr, exitOnCtrlC: false, patchConsole: false });
await new Promise((r) => setTimeout(r, 50));
if (mode === 'feed') {
  for (let i = 0; i < all.length; i += 25) {
    for (const entry of all.slice(i, i + 25)) for (const l of listeners) l(entry);
    await new Promise((r) => setTimeout(r, 10));
  }
}
await new Promise((r) => setTimeout(r, 100));
const loadMs = now() - t0;

const latencies = [];
let typed = '';
for (let k = 0; k < keys; k++) {
  const ch = String.fromCharCode(97 + (k % 26));
  typed += ch;
  const want = typed;
  let start = 0;
  const shown = new Promise((resolve) => {
    stdout.onWrite = (data) => {
      if (data.includes(want)) resolve(now() - start);
    };
  });
  const timeout = new Promise((resolve) => setTimeout(() => resolve(Number.NaN), 1000));
  start = now();
  stdin.write(ch);
  latencies.push(await Promise.race([shown, timeout]));
  stdout.onWrite = undefined;
  // Keys 50 ms apart: a person typing, and past Ink's 30 fps frame throttle, so each key gets its own frame.
  await new Promise((r) => setTimeout(r, 50));
}
global.gc?.();
await new Promise((r) => setTimeout(r, 50));
const mem = process.memoryUsage();
instance.unmount();
process.stdout.write(
  JSON.stringify({ items, mode, latencies, loadMs, rssMiB: mem.rss / 2 ** 20, heapUsedMiB: mem.heapUsed / 2 ** 20, bytesWritten: stdout.bytes }) + '\n',
);
process.exit(0);
