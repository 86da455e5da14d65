import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Clock } from '../util/index.js';
import { createScriptedModel } from './scripted-model.js';

async function readAll(
  stream: ReadableStream<LanguageModelV3StreamPart>,
): Promise<LanguageModelV3StreamPart[]> {
  const parts: LanguageModelV3StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const weather = tool({
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
});

describe('doStream', () => {
  it('emits the parts of a realistic V3 stream in order', async () => {
    const model = createScriptedModel({
      steps: [
        {
          reasoning: 'Need the weather first.',
          text: 'Let me look that up for you.',
          toolCalls: [{ toolName: 'weather', input: { city: 'Oslo' } }],
          usage: { inputTokens: 10, outputTokens: 20 },
        },
      ],
    });
    const { stream } = await model.doStream({ prompt: [] });
    const parts = await readAll(stream);
    const types = parts.map((part) => part.type);

    expect(types).toEqual([
      'stream-start',
      'response-metadata',
      'reasoning-start',
      ...types.filter((type) => type === 'reasoning-delta'),
      'reasoning-end',
      'text-start',
      ...types.filter((type) => type === 'text-delta'),
      'text-end',
      'tool-input-start',
      ...types.filter((type) => type === 'tool-input-delta'),
      'tool-input-end',
      'tool-call',
      'finish',
    ]);
    const deltas = (type: string) =>
      parts.flatMap((part) => (part.type === type && 'delta' in part ? [part.delta] : []));
    expect(deltas('text-delta').length).toBeGreaterThan(1);
    expect(deltas('text-delta').join('')).toBe('Let me look that up for you.');
    expect(deltas('reasoning-delta').join('')).toBe('Need the weather first.');
    expect(deltas('tool-input-delta').join('')).toBe('{"city":"Oslo"}');
    expect(parts).toContainEqual({ type: 'tool-input-start', id: 'call_1', toolName: 'weather' });
    expect(parts).toContainEqual({
      type: 'tool-call',
      toolCallId: 'call_1',
      toolName: 'weather',
      input: '{"city":"Oslo"}',
    });
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: {
        inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 20, text: 14, reasoning: 6 },
      },
    });
    expect(model.calls[0]?.method).toBe('stream');
  });

  it('streams the output of an error step, then an error part', async () => {
    const failure = new Error('connection reset');
    const model = createScriptedModel({
      steps: [{ text: 'partial answer', error: failure }, { error: failure }],
    });
    const parts = await readAll((await model.doStream({ prompt: [] })).stream);
    expect(parts.slice(-2)).toMatchObject([
      { type: 'error', error: failure },
      { type: 'finish', finishReason: { unified: 'error' } },
    ]);
    await expect(model.doStream({ prompt: [] })).rejects.toBe(failure);
  });

  it('errors the stream with the abort reason when aborted while reading', async () => {
    const model = createScriptedModel({ steps: [{ text: 'one two three four five six' }] });
    const controller = new AbortController();
    const reader = (await model.doStream({ prompt: [], abortSignal: controller.signal })).stream.getReader();
    expect((await reader.read()).value?.type).toBe('stream-start');
    controller.abort(new Error('user left'));
    await expect(reader.read()).rejects.toThrow('user left');
  });

  it('spaces parts by chunkDelayMs on the injected clock', async () => {
    const sleeps: number[] = [];
    const clock: Clock = { now: () => 0, sleep: async (ms) => void sleeps.push(ms) };
    const model = createScriptedModel({ steps: [{ text: 'Hi' }], chunkDelayMs: 25, clock });
    const parts = await readAll((await model.doStream({ prompt: [] })).stream);
    expect(sleeps).toEqual(Array.from({ length: parts.length - 1 }, () => 25));
    expect(parts[1]).toMatchObject({
      type: 'response-metadata',
      id: 'resp_1',
      modelId: 'scripted-model',
      timestamp: new Date(0),
    });
  });
});

describe('streamText', () => {
  it('streams text in several deltas', async () => {
    const model = createScriptedModel({ steps: [{ text: 'The quick brown fox jumps over the lazy dog.' }] });
    const result = streamText({ model, prompt: 'Tell me something' });
    const chunks: string[] = [];
    for await (const chunk of result.textStream) chunks.push(chunk);

    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe('The quick brown fox jumps over the lazy dog.');
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).outputTokens).toBe(11);
  });

  it('plays a tool call round trip', async () => {
    const model = createScriptedModel({
      steps: [
        { toolCalls: [{ toolName: 'weather', input: { city: 'Lima' } }] },
        { text: 'It is sunny in Lima.' },
      ],
    });
    const result = streamText({ model, tools: { weather }, prompt: 'Weather?', stopWhen: stepCountIs(2) });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);

    expect(types).toEqual(
      expect.arrayContaining(['tool-input-start', 'tool-input-delta', 'tool-call', 'tool-result']),
    );
    expect(await result.text).toBe('It is sunny in Lima.');
    const [first] = await result.steps;
    expect(first?.toolResults).toMatchObject([
      { toolCallId: 'call_1', input: { city: 'Lima' }, output: 'sunny in Lima' },
    ]);
    expect(model.remaining()).toBe(0);
  });

  it('ends with an abort part and rejects its promises when the caller aborts', async () => {
    // each pause yields to the event loop once, so the consumer can abort between parts
    const clock: Clock = { now: () => 0, sleep: () => new Promise((resolve) => setImmediate(resolve)) };
    const model = createScriptedModel({
      steps: [{ text: 'one two three four five six' }],
      chunkDelayMs: 1,
      clock,
    });
    const controller = new AbortController();
    const result = streamText({ model, prompt: 'x', abortSignal: controller.signal });
    const types: string[] = [];
    for await (const part of result.fullStream) {
      types.push(part.type);
      if (part.type === 'text-delta') controller.abort();
    }
    expect(types).toEqual(['start', 'start-step', 'text-start', 'text-delta', 'abort']);
    await expect(result.text).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reports a missing step through onError and the rejected text promise', async () => {
    const model = createScriptedModel({ steps: [] });
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: 'x', onError: ({ error }) => void errors.push(error) });
    await expect(result.text).rejects.toThrow();
    expect(errors[0]).toMatchObject({ name: 'ScriptExhaustedError' });
  });
});
