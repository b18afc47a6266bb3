// models.maxTokens reaches every server backend on the wire: OpenAI-compatible `max_tokens`, Ollama `options.num_predict`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/schema.js';
import { createModel } from '../../src/model/index.js';
import { startFakeLlm, type FakeLlm } from '../helpers/fake-llm.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ toolCalls: [] });
});
afterAll(() => fake.close());

describe('models.maxTokens on the wire', () => {
  it('openai: max_tokens; ollama: options.num_predict — the configured value on every request', async () => {
    const config = ConfigSchema.parse({ models: { maxTokens: 321 }, openai: { baseURL: fake.openaiURL }, ollama: { baseURL: fake.url } });
    const msgs = [{ role: 'user' as const, content: 'hi' }];
    await createModel('openai:local', config, { env: {} }).generate(msgs, { tools: [] });
    expect((fake.requests.at(-1)!.body as { max_tokens?: unknown }).max_tokens).toBe(321);
    await createModel('ollama:tiny', config).generate(msgs, { tools: [] });
    expect((fake.requests.at(-1)!.body as { options?: { num_predict?: unknown } }).options?.num_predict).toBe(321);
  });
});
