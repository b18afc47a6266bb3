// Temp files a SIGKILLed writer leaves beside the store or the config (issue 15 §6): swept on the next write once
// older than a grace period, when their writer is gone; a live writer's temp file is left alone.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sweepTempFiles, TEMP_GRACE_MS, TEMP_MAX_AGE_MS, writeFileAtomic } from '../../src/util/atomic.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

function plant(dir: string, name: string, ageMs: number): string {
  const path = join(dir, name);
  fs.writeFileSync(path, '{"half":', { mode: 0o600 });
  const t = new Date(Date.now() - ageMs);
  fs.utimesSync(path, t, t);
  return name;
}

describe('sweeping temp files left by a killed writer', () => {
  it('the next write removes a dead writer’s old temp and lock-body files, and keeps everything else', () => {
    const dir = fs.mkdtempSync(join(tmpdir(), 'wisp-sweep-'));
    dirs.push(dir);
    const dead = deadPid();
    const old = TEMP_GRACE_MS + 5_000;
    const gone = [plant(dir, `.approvals.json.${dead}.ab12cd34.tmp`, old), plant(dir, `approvals.json.lock.${dead}.0a1b2c3d4e5f.tmp`, old)];
    const kept = [
      plant(dir, `.approvals.json.${dead}.ffff0000.tmp`, 1_000), // too young: its writer may be renaming it now
      plant(dir, `.approvals.json.${process.pid}.12345678.tmp`, old), // a live writer's
      plant(dir, `.config.json.${dead}.ab12cd34.tmp`, old), // another file's: swept by that file's next write
      plant(dir, 'notes.tmp', old),
    ];
    writeFileAtomic(join(dir, 'approvals.json'), '[]\n');
    const names = fs.readdirSync(dir);
    for (const g of gone) expect(names).not.toContain(g);
    for (const k of kept) expect(names).toContain(k);
    expect(fs.readFileSync(join(dir, 'approvals.json'), 'utf8')).toBe('[]\n');

    writeFileAtomic(join(dir, 'config.json'), '{}\n');
    expect(fs.readdirSync(dir)).not.toContain(`.config.json.${dead}.ab12cd34.tmp`);
  });

  it('any temp file past the maximum age goes, whatever its pid says (pid reuse, a stopped writer)', () => {
    const dir = fs.mkdtempSync(join(tmpdir(), 'wisp-sweep-'));
    dirs.push(dir);
    const stuck = plant(dir, `.config.json.${process.pid}.deadbeef.tmp`, TEMP_MAX_AGE_MS + 60_000);
    expect(sweepTempFiles(dir, 'config.json')).toEqual([stuck]);
  });
});
