// respond's output schema is derived from the same zod schema that types its result (src/mcp/schemas.ts): what the
// server lists is what it sends, for a result with a pending approval, a pending inquiry and a refusal.
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { RespondResult } from '../../src/mcp/schemas.js';
import { ask, run, say, startHarness, type Harness } from './helpers.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

describe('respond output schema', () => {
  it('lists the fields the hand-written schema had, and every result validates against it', async () => {
    const h = await startHarness({ channel: 'result', responses: [run('touch marker'), ask('Colour?'), run('sudo rm -rf /'), say('waiting')] });
    open.push(h);
    const respond = (await h.client.listTools()).tools.find((t) => t.name === 'respond')!;
    const schema = respond.outputSchema!;
    expect(schema.required).toEqual(['thread_id', 'created', 'text', 'refusals', 'pending', 'receipt']);
    const pending = (schema.properties!.pending as { items: { required: string[]; additionalProperties?: unknown } }).items;
    expect(pending.required).toEqual(['id', 'verb', 'expiresAt', 'answer']);
    // Open objects, as before: a client validating against it keeps working when a field is added.
    expect(pending.additionalProperties).toBeUndefined();

    const result = await h.respond({ prompt: 'go' });
    const s = result.structuredContent;
    expect(s.pending.map((p) => p.verb).sort()).toEqual(['approval', 'inquiry']);
    expect(s.refusals.length).toBeGreaterThan(0);
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(s), JSON.stringify(validate.errors)).toBe(true);
    expect(RespondResult.safeParse(s).success).toBe(true);
  });
});
