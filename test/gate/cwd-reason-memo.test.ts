// cwdReason remembers its last answer (ADR 0066): the gate asks it once per part, always for the same directory.
// The memory must never answer for other places: alternating directories, projects and homes each get their own.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { initParser } from '../../src/gate/parse.js';

const config = defaultConfig();
const decide = (cwd: string, project: string, home: string): string =>
  decisionFor(analyzeLine('ls -la', config, cwd, { home, project }), 'moderate');

beforeAll(async () => {
  await initParser();
});

describe('the remembered answer about the working directory', () => {
  it('attack: a line checked outside the project right after one inside is judged for its own directory', () => {
    for (let i = 0; i < 3; i++) {
      expect(decide('/home/p/project', '/home/p/project', '/home/p')).toBe('run');
      expect(decide('/home/p', '/home/p/project', '/home/p')).not.toBe('run');
      expect(decide('/home/p/project/src', '/home/p/project', '/home/p')).toBe('run');
    }
  });

  it('attack: the same directory under another project is judged again (answers right after any one-field change equal fresh ones)', () => {
    const places: Array<[string, string, string]> = [];
    for (const cwd of ['/srv/app', '/home/p/project', '/home/p', '/usr/share', '/usr/share/h', '/tmp/x', '/home/q/work']) {
      for (const project of ['/srv/app', '/home/p/project', '/home/q/work']) {
        for (const home of ['/home/p', '/home/q', '/usr/share/h']) places.push([cwd, project, home]);
      }
    }
    const fresh = places.map((p) => (decide('/', '/', '/'), decide(...p)));
    expect(new Set(fresh).size).toBe(2); // some run, some ask: the places matter
    // Right after places that differ in one field only, each is still judged as on its own.
    const wrong: string[] = [];
    places.forEach((q, i) => {
      for (const p of places) {
        if (p.filter((v, k) => v !== q[k]).length !== 1) continue;
        decide(...p);
        if (decide(...q) !== fresh[i]) wrong.push(`${q.join(' ')} after ${p.join(' ')}`);
      }
    });
    expect(wrong).toEqual([]);
  });
});
