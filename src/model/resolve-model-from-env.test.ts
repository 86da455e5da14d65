import { generateText, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors/index.js';
import { startOpenAICompatibleServer } from '../test/openai-compatible-server.js';
import { resolveModelFromEnv } from './resolve-model-from-env.js';

describe('resolveModelFromEnv', () => {
  it('returns undefined when FLOWSTACK_MODEL is unset or empty', () => {
    expect(resolveModelFromEnv({})).toBeUndefined();
    expect(resolveModelFromEnv({ FLOWSTACK_MODEL: '  ', OPENAI_API_KEY: 'sk-test' })).toBeUndefined();
  });

  it('resolves openai:<id> to the chat-completions model', () => {
    const resolved = resolveModelFromEnv({
      FLOWSTACK_MODEL: 'openai:gpt-4.1-mini',
      OPENAI_API_KEY: 'sk-secret',
    });
    expect(resolved?.model).toMatchObject({
      specificationVersion: 'v3',
      provider: 'openai.chat',
      modelId: 'gpt-4.1-mini',
    });
    expect(resolved?.description).toBe('openai:gpt-4.1-mini (chat completions at https://api.openai.com/v1)');
    expect(resolved?.description).not.toContain('sk-secret');
  });

  it('resolves anthropic:<id>', () => {
    const resolved = resolveModelFromEnv({
      FLOWSTACK_MODEL: 'anthropic:claude-sonnet-4-5',
      ANTHROPIC_API_KEY: 'key',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(resolved?.model).toMatchObject({ provider: 'anthropic.messages', modelId: 'claude-sonnet-4-5' });
    expect(resolved?.description).toBe('anthropic:claude-sonnet-4-5 (messages at http://127.0.0.1:9/v1)');
  });

  it('resolves openai-compatible:<baseURL>#<id> with or without a key', () => {
    const resolved = resolveModelFromEnv({
      FLOWSTACK_MODEL: 'openai-compatible:http://localhost:11434/v1#llama3.2:3b',
    });
    expect(resolved?.model).toMatchObject({ provider: 'openai-compatible.chat', modelId: 'llama3.2:3b' });
    expect(resolved?.description).toBe(
      'openai-compatible:llama3.2:3b (chat completions at http://localhost:11434/v1)',
    );
  });

  it.each([
    ['gpt-4o', /unknown provider "gpt-4o"/],
    ['mistral:large', /unknown provider "mistral"/],
    ['openai:', /model id after "openai:" is missing/],
    ['anthropic: ', /model id after "anthropic:" is missing/],
    ['openai-compatible:localhost:8080#m', /base URL "localhost:8080" is not an http\(s\) URL/],
    ['openai-compatible:http://localhost:8080/v1', /model id after "#" is missing/],
    ['openai-compatible:http://localhost:8080/v1#', /model id after "#" is missing/],
  ])('rejects the malformed value %j, naming the variable and the forms', (value, problem) => {
    const resolve = () =>
      resolveModelFromEnv({ FLOWSTACK_MODEL: value, OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' });
    expect(resolve).toThrow(ConfigurationError);
    expect(resolve).toThrow(problem);
    expect(resolve).toThrow(`FLOWSTACK_MODEL=${JSON.stringify(value)} is not a model setting`);
    expect(resolve).toThrow(
      /openai:<model id>[\s\S]*anthropic:<model id>[\s\S]*openai-compatible:<base URL>#<model id>/,
    );
  });

  it.each([
    ['openai:gpt-4o', 'OPENAI_API_KEY'],
    ['anthropic:claude-haiku-4-5', 'ANTHROPIC_API_KEY'],
  ])('rejects %s without %s', (value, key) => {
    const resolve = () => resolveModelFromEnv({ FLOWSTACK_MODEL: value, [key]: '' });
    expect(resolve).toThrow(ConfigurationError);
    expect(resolve).toThrow(`FLOWSTACK_MODEL="${value}" needs ${key}, which is not set`);
  });

  it('runs generateText against a local OpenAI-compatible server', async () => {
    const server = await startOpenAICompatibleServer({
      steps: [{ match: { lastUser: 'ping' }, text: 'pong', repeat: true }],
    });
    try {
      const env = {
        FLOWSTACK_MODEL: `openai-compatible:${server.url}#test-model`,
        FLOWSTACK_API_KEY: 'local',
      };
      const resolved = resolveModelFromEnv(env);
      if (resolved === undefined) throw new Error('expected a model');

      const result = await generateText({ model: resolved.model, prompt: 'ping', maxRetries: 0 });
      const streamed = streamText({ model: resolved.model, prompt: 'ping', maxRetries: 0 });

      expect(result.text).toBe('pong');
      expect(await streamed.text).toBe('pong');
      expect((await streamed.usage).outputTokens).toBe(1);
      expect(server.requests.map((request) => request.model)).toEqual(['test-model', 'test-model']);
    } finally {
      await server.close();
    }
  });

  it('lets openai:<id> with OPENAI_BASE_URL talk to an OpenAI-compatible server', async () => {
    const server = await startOpenAICompatibleServer({ steps: [{ text: 'hello from chat completions' }] });
    try {
      const resolved = resolveModelFromEnv({
        FLOWSTACK_MODEL: 'openai:local',
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: server.url,
      });
      if (resolved === undefined) throw new Error('expected a model');
      const result = await generateText({ model: resolved.model, prompt: 'hi', maxRetries: 0 });
      expect(result.text).toBe('hello from chat completions');
      expect(server.requests[0]?.messages).toEqual([{ role: 'user', content: 'hi' }]);
    } finally {
      await server.close();
    }
  });
});
