import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { ApprovalCache } from '../../src/gate/session-approvals.js';
import { ApprovalStore } from '../../src/gate/store.js';
import { runSlash, type SlashContext } from '../../ui/slash.js';

let dir: string;
let ctx: SlashContext;
let audit: MemoryAudit;
let store: ApprovalStore;
let session: ApprovalCache;
let model = 'script:/a.json';
let fresh = 0;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wisp-ui-slash-'));
  mkdirSync(join(dir, 'home'), { mode: 0o700 });
  audit = new MemoryAudit();
  store = new ApprovalStore(join(dir, 'home', 'approvals.json'));
  session = new ApprovalCache();
  fresh = 0;
  model = 'script:/a.json';
  ctx = {
    config: ConfigSchema.parse({}),
    configFile: join(dir, 'home', 'config.json'),
    audit,
    auditCtx: { session: 'chat1' },
    store,
    sessionApprovals: session,
    modelId: () => model,
    setModel: (spec) => {
      if (!spec.includes(':')) throw new Error(`Unknown model spec "${spec}"`);
      model = spec;
      return spec;
    },
    newConversation: () => {
      fresh++;
    },
  };
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const text = (r: ReturnType<typeof runSlash>) => (r.kind === 'quit' ? '' : r.text);

describe('slash commands', () => {
  it('/help lists every command and the dialog keys', () => {
    const out = text(runSlash('/help', ctx));
    for (const c of ['/approvals', '/approvals revoke ID', '/config set KEY VALUE', '/model [SPEC]', '/new', '/quit']) expect(out).toContain(c);
    expect(out).toContain('Enter alone is no');
  });

  it('/quit quits; an unknown command says so', () => {
    expect(runSlash('/quit', ctx)).toEqual({ kind: 'quit' });
    expect(runSlash('/frobnicate', ctx)).toEqual({ kind: 'error', text: 'unknown command /frobnicate; /help lists them' });
  });

  it('/approvals lists stored and session approvals; revoke removes either kind', () => {
    const stored = store.add({ pattern: 'git push *', workingDirectory: '/w', scope: 'project', level: 'moderate', persistDays: 30, source: 'chat' });
    session.add('/w', 'touch *');
    const list = text(runSlash('/approvals', ctx));
    expect(list).toMatch(new RegExp(`${stored.id}\\s+project\\s+moderate\\s+\\d{4}-\\d\\d-\\d\\d\\s+/w\\s+git push \\*`));
    expect(list).toMatch(/s1\s+\/w\s+touch \*/);

    expect(runSlash(`/approvals revoke ${stored.id}`, ctx)).toEqual({ kind: 'print', text: `revoked ${stored.id}` });
    expect(store.list()).toHaveLength(0);
    expect(text(runSlash('/approvals revoke s1', ctx))).toContain('revoked session approval s1');
    expect(session.size).toBe(0);
    expect(runSlash('/approvals revoke nope', ctx)).toMatchObject({ kind: 'error' });
    expect(text(runSlash('/approvals', ctx))).toMatch(/Standing approvals: none\nSession approvals: none/);
  });

  it('/config shows the configuration in effect, or one key', () => {
    expect(text(runSlash('/config', ctx))).toContain('"timeoutSeconds": 600');
    expect(text(runSlash('/config show approval.threshold', ctx))).toBe('approval.threshold: "moderate"');
  });

  it('/config set validates, writes the user config and audits config.change', () => {
    const out = runSlash('/config set escalation.timeoutSeconds 30', ctx);
    expect(out.kind).toBe('print');
    expect(text(out)).toMatch(/escalation\.timeoutSeconds: 600 → 30/);
    expect(JSON.parse(readFileSync(ctx.configFile, 'utf8'))).toEqual({ escalation: { timeoutSeconds: 30 } });
    expect(audit.ofKind('config.change')[0]!.details).toMatchObject({ key: 'escalation.timeoutSeconds', after: 30, via: 'chat' });
  });

  it('/config set refuses a bad value and writes nothing', () => {
    const out = runSlash('/config set approval.threshold loud', ctx);
    expect(out.kind).toBe('error');
    expect(() => readFileSync(ctx.configFile)).toThrow();
    expect(audit.ofKind('config.change')).toHaveLength(0);
  });

  it('/config set notes a change that weakens the gate', () => {
    expect(text(runSlash('/config set approval.threshold dangerous', ctx))).toMatch(/weakens the gate/);
  });

  it('/model shows or switches the model; a bad spec is an error', () => {
    expect(text(runSlash('/model', ctx))).toBe('model: script:/a.json');
    expect(text(runSlash('/model ollama:qwen3:8b', ctx))).toContain('model: ollama:qwen3:8b');
    expect(runSlash('/model nonsense', ctx)).toMatchObject({ kind: 'error' });
  });

  it('/new starts a new conversation', () => {
    runSlash('/new', ctx);
    expect(fresh).toBe(1);
  });
});
