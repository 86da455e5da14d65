/**
 * The AI SDK model versions `createAgent` accepts: v3 (AI SDK 6) and v4 (AI SDK 7), in types and at run
 * time, with their token counts and finish reasons read; anything else is a `ConfigurationError` that
 * names the version and what to install.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import type { LanguageModelV4Like } from '../model/index.js';
import type { Observation } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { createAgent } from './create-agent.js';

const chat = defineFlow({ name: 'chat', intent: 'converse', description: 'Talk with the user.' });

function scripted() {
  return createScriptedModel({
    steps: [
      {
        match: { phase: 'predict' },
        json: { flow: 'chat', slots: [] },
        usage: { inputTokens: 40, outputTokens: 5 },
      },
      { match: { phase: 'skill' }, text: 'Hello there.', usage: { inputTokens: 60, outputTokens: 3 } },
    ],
  });
}

describe('model versions', () => {
  it('runs a v4 (AI SDK 7) model, typed as one, and reads its token counts and finish reasons', async () => {
    const inner = scripted();
    // The shape an AI SDK 7 provider returns: the v4 marker on the same calls.
    const v4: LanguageModelV4Like = {
      specificationVersion: 'v4',
      provider: inner.provider,
      modelId: inner.modelId,
      supportedUrls: {},
      doGenerate: (options) => inner.doGenerate(options),
      doStream: (options) => inner.doStream(options),
    };
    const agent = createAgent({ model: v4, flows: [chat], store: createMemoryStore(), stream: true });
    const progress: Observation[] = [];
    agent.subscribe((o) => progress.push(o), { threadId: 't1', progress: true });
    const turn = await agent.send({ threadId: 't1', text: 'Tell me about your day' });
    expect(turn.reply).toBe('Hello there.');
    const ends = progress.filter((o) => o.type === 'model-stream-end').map((o) => o.data);
    expect(ends).toEqual([
      expect.objectContaining({ phase: 'predict', inputTokens: 40, outputTokens: 5, finishReason: 'stop' }),
      expect.objectContaining({ phase: 'skill', inputTokens: 60, outputTokens: 3, finishReason: 'stop' }),
    ]);
  });

  it('refuses a v2 (AI SDK 5) model, naming the version and what to install', () => {
    const inner = scripted();
    const v2 = { ...inner, specificationVersion: 'v2' } as unknown as LanguageModelV4Like;
    let error: unknown;
    try {
      createAgent({ model: v2, flows: [chat], store: createMemoryStore() });
    } catch (caught) {
      error = caught;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('specification v2 (AI SDK 5)');
    expect(message).toContain('accepts v3 (AI SDK 6) and v4 (AI SDK 7)');
    expect(message).toMatch(/npm install ai@\^6/);
  });

  it('refuses something that is not a language model at all', () => {
    expect(() =>
      createAgent({ model: {} as unknown as LanguageModelV4Like, flows: [chat], store: createMemoryStore() }),
    ).toThrow(/no specificationVersion/);
  });
});
