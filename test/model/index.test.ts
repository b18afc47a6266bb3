import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { WispError } from '../../src/core/errors.js';
import { ModelError, createModel, parseModelSpec } from '../../src/model/index.js';
import { OllamaModel } from '../../src/model/ollama.js';
import { OpenAIModel } from '../../src/model/openai.js';

function usage(spec: string): ModelError {
  try {
    parseModelSpec(spec);
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    const e = err as ModelError;
    expect(e.kind).toBe('usage');
    expect(e.exitCode).toBe(64);
    expect(e).toBeInstanceOf(WispError);
    return e;
  }
  throw new Error(`expected "${spec}" to be refused`);
}

describe('parseModelSpec', () => {
  it.each([
    ['ollama:qwen3:8b', 'ollama', 'qwen3:8b', false],
    ['openai:local', 'openai', 'local', false],
    ['openai:Qwen/Qwen3-8B', 'openai', 'Qwen/Qwen3-8B', false],
    ['script:./demo.json', 'script', './demo.json', false],
    ['script:C:/odd:path.json', 'script', 'C:/odd:path.json', false],
    ['qwen3:8b', 'ollama', 'qwen3:8b', true],
    ['llama3.1', 'ollama', 'llama3.1', true],
    ['hf.co/unsloth/Qwen3-8B-GGUF:Q4_K_M', 'ollama', 'hf.co/unsloth/Qwen3-8B-GGUF:Q4_K_M', true],
    ['  ollama:qwen3:4b  ', 'ollama', 'qwen3:4b', false],
    ['Ollama:qwen3:4b', 'ollama', 'qwen3:4b', false],
  ])('%s → %s %s', (spec, backend, name, implied) => {
    expect(parseModelSpec(spec)).toEqual({ backend, name, implied });
  });

  it('refuses an unknown backend, saying which ones exist', () => {
    const err = usage('anthropic:claude/opus');
    expect(err.message).toContain('Unknown model backend "anthropic"');
    expect(err.message).toContain('-m ollama:NAME');
    expect(err.message).toContain('-m script:PATH');
  });

  it('refuses well-known non-backends and typos instead of asking Ollama for them', () => {
    expect(usage('lmstudio:qwen3-8b').message).toContain('-m openai:NAME');
    expect(usage('llama.cpp:model').message).toContain('openai.baseURL');
    expect(usage('olama:qwen3:8b').message).toContain('Did you mean -m ollama:qwen3:8b?');
    expect(usage('scripts:demo.json').message).toContain('Did you mean -m script:demo.json?');
  });

  it('refuses an address given as a model', () => {
    expect(usage('http://127.0.0.1:11434').message).toContain('ollama.baseURL');
  });

  it('refuses empty names', () => {
    usage('');
    usage('ollama:');
    expect(usage('script:').message).toContain('script:PATH');
    usage('openai:   ');
  });

  it('refuses white space in a name', () => {
    usage('qwen3 8b');
    usage('ollama:qwen3 8b');
  });
});

describe('createModel', () => {
  it('builds each backend from the config', () => {
    const config = {
      ...defaultConfig(),
      ollama: { baseURL: 'http://10.0.0.5:11434', timeoutSeconds: 30 },
      openai: { baseURL: 'http://10.0.0.6:1234/v1', timeoutSeconds: 60 },
    };
    const o = createModel('ollama:qwen3:8b', config);
    expect(o).toBeInstanceOf(OllamaModel);
    expect(o.id).toBe('ollama:qwen3:8b');
    expect(o.fork()).toBe(o);
    const a = createModel('openai:local', config, { env: {} });
    expect(a).toBeInstanceOf(OpenAIModel);
    expect(a.id).toBe('openai:local');
  });

  it('the default config names a model createModel accepts', () => {
    const config = defaultConfig();
    expect(createModel(config.model, config).id).toBe(config.model);
  });

  it('a usage error is a WispError with exit code 64; other kinds exit 1', () => {
    expect(() => createModel('nope:x/y', defaultConfig())).toThrow(ModelError);
    expect(new ModelError('timeout', 'slow', 'wait').exitCode).toBe(1);
    expect(new ModelError('timeout', 'Slow', 'Raise it').message).toBe('Slow. Raise it.');
  });
});
