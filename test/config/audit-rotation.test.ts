// config/audit-rotation.ts hands the audit layer its rotation sizes as plain numbers (the audit log does not read the
// config, ADR 0061): the user's sizes when the config reads, the defaults when it is broken.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditRotation } from '../../src/config/audit-rotation.js';
import { defaultConfig } from '../../src/config/schema.js';

const home = (config?: string): string => {
  const dir = mkdtempSync(join(tmpdir(), 'wisp-rot-'));
  if (config !== undefined) writeFileSync(join(dir, 'config.json'), config, { mode: 0o600 });
  return dir;
};

describe('auditRotation', () => {
  it("takes the user's sizes", () => {
    const h = home(JSON.stringify({ audit: { keepFiles: 2, maxFileBytes: 200_000 } }));
    expect(auditRotation({ home: h, cwd: h })).toEqual({ keepFiles: 2, maxFileBytes: 200_000 });
  });

  it('falls back to the defaults for a config that does not parse (the command may be repairing it)', () => {
    const d = defaultConfig().audit;
    for (const text of ['{ not json', JSON.stringify({ audit: { keepFiles: 'many' } })]) {
      const h = home(text);
      expect(auditRotation({ home: h, cwd: h })).toEqual({ keepFiles: d.keepFiles, maxFileBytes: d.maxFileBytes });
    }
  });
});
