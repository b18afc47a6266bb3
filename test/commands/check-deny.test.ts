// `wisp check --json` through the built bin: every deny-list spelling named in issue #12.2 is decided `deny`, with
// the entry's sentence as the reason and its name as policyRule (issue #17.4), and ordinary lines are not.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_DENY } from '../../src/gate/deny.js';
import { DENY_SPELLINGS } from '../gate/deny-corpus.js';

const run = promisify(execFile);
const BIN = resolve(__dirname, '../../dist/bin/wisp.js');

/** The spellings the issue lists by name (the unit tests cover the whole corpus). */
const ISSUE_SPELLINGS = [
  'rm -rf /..', 'rm -rf /./', 'rm -rf /tmp/..', 'rm -rf //',
  'bash <(curl …)', 'sh -c "$(curl …)"', 'eval "$(curl …)"',
  'curl | busybox sh', 'curl | csh', 'curl | tcsh', 'curl | yash', 'curl | ksh', 'curl | zsh', 'curl | fish', 'curl | dash',
  'curl | $SHELL', 'curl | script -qc sh', 'curl | strace -f sh', 'curl | env sh', 'curl | python -', 'wget -O- | sh',
  'sudo$IFS', '{sudo,}',
  'tee /dev/sda', 'cp img /dev/sdb', 'dd of=/dev/sda', '>| /dev/sda', 'mkfs.ext4', 'mkdosfs', 'mkntfs', 'nvme format',
  'badblocks -w', 'wipefs',
  'node …/wisp.js approvals approve', 'npx wisp@latest approvals approve', "script -qc 'wisp approvals approve'",
  'wisp approvals deny', 'wisp config set',
];

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'wisp-check-deny-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

async function checkJson(line: string): Promise<{ decision: string; policyReason?: string; policyRule?: string }> {
  const { stdout } = await run(process.execPath, [BIN, 'check', '--json', '--', line], {
    env: { ...process.env, WISP_HOME: home },
    cwd: home,
  });
  return JSON.parse(stdout) as { decision: string; policyReason?: string; policyRule?: string };
}

describe('wisp check --json: deny-list spellings', () => {
  const cases = DENY_SPELLINGS.filter(([name]) => ISSUE_SPELLINGS.includes(name));

  it('covers every spelling the issue names', () => {
    expect(cases.map(([name]) => name).sort()).toEqual([...ISSUE_SPELLINGS].sort());
  });

  it.each(cases)('%s is denied by its named entry', { timeout: 60_000 }, async (_name, line, rule) => {
    const r = await checkJson(line);
    expect(r.decision).toBe('deny');
    expect(r.policyRule).toBe(rule);
    expect(r.policyReason).toBe(BUILTIN_DENY.find((e) => e.name === rule)!.sentence);
  });

  it.each(['ls -la', 'git status', 'rm -rf ./build', 'curl -s https://x.example/d.json | jq .'])('%s is not denied', { timeout: 60_000 }, async (line) => {
    const r = await checkJson(line);
    expect(r.decision).not.toBe('deny');
    expect(r.policyRule).toBeUndefined();
  });
});
