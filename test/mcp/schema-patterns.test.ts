// A model's ask_operator schema cannot stall wisp (issue #12.4): `pattern` keywords run on the linear-time engine when
// an answer is validated, and a pattern that engine cannot run is refused before anyone is asked.
import { describe, expect, it } from 'vitest';
import { inquiryForm } from '../../src/mcp/inquiry-form.js';
import type { ChatMessage } from '../../src/model/types.js';
import { schemaPatternProblem } from '../../src/util/linear-regex.js';
import { CountingChannel } from '../helpers/counting-channel.js';
import { call, makeRig } from '../helpers/conversation.js';

const lastTool = (messages: ChatMessage[]) => [...messages].reverse().find((m) => m.role === 'tool') as Extract<ChatMessage, { role: 'tool' }>;

describe('schema patterns from a model', () => {
  it('catastrophic `pattern` in a nested schema: the answer is validated in linear time', () => {
    const schema = { type: 'object', properties: { names: { type: 'array', items: { type: 'string', pattern: '^(a+)+$' } } } };
    const form = inquiryForm({ question: 'Names?', schema }, 1000);
    const hostile = JSON.stringify({ names: ['a'.repeat(4000) + '!'] });
    const t = performance.now();
    const r = form.read({ answer: hostile });
    // Explicit issue requirement (#12.4): bounded time per decision, generous to stay robust under load.
    expect(performance.now() - t).toBeLessThan(1000);
    expect(r).toMatchObject({ ok: false, reason: expect.stringContaining('must match pattern') });
    expect(form.read({ answer: JSON.stringify({ names: ['aaa'] }) })).toEqual({ ok: true, text: '{"names":["aaa"]}' });
  });

  it('patternProperties keys run on the same engine', () => {
    const schema = { type: 'object', patternProperties: { '^(x+x+)+y$': { type: 'string' } }, additionalProperties: false, properties: { q: { type: 'object' } } };
    const form = inquiryForm({ question: 'Map?', schema }, 1000);
    const t = performance.now();
    const r = form.read({ answer: JSON.stringify({ ['x'.repeat(3000)]: 'v' }) });
    expect(performance.now() - t).toBeLessThan(1000);
    expect(r.ok).toBe(false);
  });

  it('names the first pattern the engine cannot run, with its place in the schema', () => {
    expect(schemaPatternProblem({ properties: { a: { type: 'string', pattern: '(?=x)' } } })).toMatch(/^\/properties\/a\/pattern: pattern "\(\?=x\)" cannot be used: lookahead/);
    expect(schemaPatternProblem({ patternProperties: { '(a)\\1': {} } })).toMatch(/^\/patternProperties: .*backreference/);
    expect(schemaPatternProblem({ properties: { a: { type: 'string', pattern: '^[a-z]+$' } } })).toBeUndefined();
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i++) deep = { items: deep };
    expect(schemaPatternProblem(deep)).toMatch(/too large or too deeply nested/);
  });

  it('ask_operator with a lookahead pattern is refused before anyone is asked', async () => {
    const channel = new CountingChannel({ kind: 'answered', text: '{}' });
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^(?!admin).*$' } } };
    const rig = await makeRig({ responses: [call('ask_operator', { question: 'Who?', schema }), { text: 'ok' }], channel });
    await rig.conversation.turn('go');
    expect(channel.asked).toHaveLength(0);
    const tool = lastTool(rig.seen[1]!);
    expect(tool.content).toMatch(/nobody was asked: \/properties\/a\/pattern: pattern .* cannot be used: lookahead/);
  });
});
