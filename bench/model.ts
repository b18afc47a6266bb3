// Benchmark — the in-process model backend (`-m llama:…`, src/model/llama.ts as built) with the real test model
// ../shared/models/tiny-toolcaller.gguf: how long loading the file takes, and tokens per second reading a prompt (wisp's
// system prompt and tool list through the model's template, about 1,100 tokens) and generating (greedy, 64 tokens).
// One thread, as on a shared 2-core machine. Informational rows: speed depends on the machine and the model.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type * as ChatTemplateModule from '../src/model/chat-template.js';
import type * as LlamaModule from '../src/model/llama.js';
import type * as ConversationModule from '../src/session/conversation.js';
import type * as RegistryModule from '../src/tools/registry.js';
import { type BenchContext, importDist, ROOT, type Row, summary, wallMs } from './lib.js';

const CANDIDATES = [resolve(ROOT, '../shared/models/tiny-toolcaller.gguf'), resolve(ROOT, '../../shared/models/tiny-toolcaller.gguf')];

export async function modelBench(ctx: BenchContext): Promise<Row[]> {
  const file = CANDIDATES.find((p) => existsSync(p));
  if (!file) {
    ctx.log(`bench: model skipped: the test model is absent (${CANDIDATES[0]})`);
    return [];
  }
  const rounds = ctx.quick ? 2 : 5;
  const lib = await import('node-llama-cpp');
  const { ChatTemplate } = await importDist<typeof ChatTemplateModule>('src/model/chat-template.js');
  const { tokenizePrompt } = await importDist<typeof LlamaModule>('src/model/llama.js');
  const { systemPrompt } = await importDist<typeof ConversationModule>('src/session/conversation.js');
  const { selectTools, toolSchema } = await importDist<typeof RegistryModule>('src/tools/registry.js');
  const size = `${(statSync(file).size / 1e6).toFixed(1)} MB`;
  const name = file.split('/').at(-1)!;

  const t0 = wallMs();
  const llama = await lib.getLlama({ gpu: false, build: 'never', logLevel: lib.LlamaLogLevel.error });
  const runtimeMs = wallMs() - t0;

  const loads: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = wallMs();
    const m = await llama.loadModel({ modelPath: file });
    loads.push(wallMs() - t);
    await m.dispose();
  }

  const model = await llama.loadModel({ modelPath: file });
  const source = model.fileInfo.metadata.tokenizer?.chat_template;
  const template = new ChatTemplate(typeof source === 'string' ? source : undefined, {});
  const tools = selectTools({ disabled: [] });
  const specs = tools.map((t) => ({ name: t.name, description: t.description, parameters: toolSchema(t) }));
  const promptOf = (text: string) =>
    tokenizePrompt(
      model,
      template.render(
        [
          { role: 'system', content: systemPrompt(tools) },
          { role: 'user', content: text },
        ],
        specs,
      ),
    );
  const context = await model.createContext({ contextSize: 4096, sequences: 1, threads: 1 });
  const sequence = context.getSequence();
  const completion = new lib.LlamaCompletion({ contextSequence: sequence });

  const readRates: number[] = [];
  const genRates: number[] = [];
  let promptTokens = 0;
  for (let i = 0; i < rounds; i++) {
    await sequence.clearHistory(); // read the whole prompt every round, no reused prefix
    const prompt = promptOf('tell me a long story');
    promptTokens = prompt.length;
    const start = wallMs();
    let first = 0;
    let last = 0;
    let n = 0;
    await completion.generateCompletion(prompt, {
      maxTokens: 64,
      onToken: (t) => {
        const now = wallMs();
        if (n === 0) first = now;
        last = now;
        n += t.length;
      },
    });
    readRates.push(promptTokens / ((first - start) / 1000));
    if (n > 1) genRates.push((n - 1) / ((last - first) / 1000));
  }
  await context.dispose();
  await model.dispose();

  const row = (metric: string, unit: string, xs: number[], note?: string): Row => {
    const s = summary(xs);
    return { bench: 'model', metric, unit, median: s.median, p95: s.p95, n: s.n, ...(note ? { note } : {}) };
  };
  return [
    row(`load ${name} (${size})`, 'ms', loads, `llama.cpp runtime (getLlama, once per process): ${Math.round(runtimeMs)} ms`),
    row('prompt read, 1 thread', 'tok/s', readRates, `${promptTokens} tokens: wisp's system prompt and tools in the model's template, time to the first token`),
    row('generation, 1 thread', 'tok/s', genRates, 'greedy, up to 64 tokens, after the first'),
  ];
}
