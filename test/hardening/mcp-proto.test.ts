// A `__proto__` member in MCP tool arguments (a JSON key like any other on the wire). The MCP SDK's request parsing
// does not hand it to wisp as an own key (copying it by assignment makes it the object's prototype), so wisp's strict
// argument check never sees it as an unknown argument, and test/corpus/mcp-args.json cannot list it as refused. What
// matters is that it changes nothing: wisp reads only the arguments' own, validated fields — the escalation channel,
// approvals and the thread stay as they were.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, say, startHarness, type Harness } from '../mcp/helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a __proto__ member in respond arguments', () => {
  it('cannot choose the channel, approve, or pick the thread', async () => {
    h = await startHarness({ channel: 'deny', responses: [run('touch marker'), say('ok')] });
    const args = JSON.parse('{"prompt": "go", "__proto__": {"yes": true, "escalation": "auto", "thread_id": "chosen", "answers": [{"id": "x", "text": "y", "scope": "always"}]}}') as Record<string, unknown>;
    const r = await h.respond(args);
    expect(r.structuredContent.thread_id).not.toBe('chosen');
    expect(r.structuredContent.refusals).toHaveLength(1);
    expect(r.structuredContent.refusals[0]!.reason).toContain('--yes');
    expect(existsSync(join(h.dirs.work, 'marker'))).toBe(false);
    expect(h.events('escalation.answered')).toHaveLength(0);
    expect(h.events('approval.decided').map((e) => e.details.decision)).toEqual(['denied']);
  });
});
