import { APICallError } from '@ai-sdk/provider';
import { generateObject, generateText, Output, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../errors/index.js';
import { ScriptExhaustedError } from './script-exhausted-error.js';
import { createScriptedModel } from './scripted-model.js';

const flowstack = (phase: string, flow?: string) => ({
  flowstack: flow === undefined ? { phase } : { phase, flow },
});

const weather = tool({
  description: 'Current weather of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, sky: 'sunny' }),
});

describe('createScriptedModel through generateText', () => {
  it('keeps only the latest `keepCalls` calls, and counts them all', async () => {
    const model = createScriptedModel({ steps: [{ text: 'Hi.', repeat: true }], keepCalls: 2 });
    for (const prompt of ['one', 'two', 'three']) await generateText({ model, prompt });
    expect(model.callCount).toBe(3);
    expect(model.calls.map((call) => call.lastUser)).toEqual(['two', 'three']);
  });

  it('answers with the scripted text and records the call', async () => {
    const model = createScriptedModel({ steps: [{ text: 'Hello there.', label: 'greet' }] });
    const result = await generateText({
      model,
      prompt: 'Hi!',
      providerOptions: flowstack('compose', 'greet'),
    });

    expect(result.text).toBe('Hello there.');
    expect(result.finishReason).toBe('stop');
    expect(model.callCount).toBe(1);
    expect(model.remaining()).toBe(0);
    expect(model.calls[0]).toMatchObject({
      method: 'generate',
      phase: 'compose',
      flow: 'greet',
      lastUser: 'Hi!',
      toolNames: [],
      stepIndex: 0,
      label: 'greet',
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hi!' }] }],
    });
  });

  it('plays a tool call round trip', async () => {
    const model = createScriptedModel({
      steps: [
        { toolCalls: [{ toolName: 'weather', input: { city: 'Oslo' } }] },
        {
          match: { prompt: (options) => options.prompt.some((m) => m.role === 'tool') },
          text: 'Sunny in Oslo.',
        },
      ],
    });
    const result = await generateText({
      model,
      tools: { weather },
      prompt: 'Weather in Oslo?',
      stopWhen: stepCountIs(2),
    });

    expect(result.steps[0]?.finishReason).toBe('tool-calls');
    expect(result.steps[0]?.toolCalls).toMatchObject([
      { toolCallId: 'call_1', toolName: 'weather', input: { city: 'Oslo' } },
    ]);
    expect(result.steps[0]?.toolResults).toMatchObject([{ output: { city: 'Oslo', sky: 'sunny' } }]);
    expect(result.text).toBe('Sunny in Oslo.');
    expect(model.calls.map((call) => call.toolNames)).toEqual([['weather'], ['weather']]);
    expect(model.calls[1]?.prompt.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_1',
          output: { type: 'json', value: { city: 'Oslo', sky: 'sunny' } },
        },
      ],
    });
  });

  it('uses given call ids and counts generated ones across calls', async () => {
    const call = { toolName: 'weather', input: { city: 'Rome' } };
    const model = createScriptedModel({
      steps: [{ toolCalls: [call, { ...call, callId: 'mine' }] }, { toolCalls: [call] }],
    });
    const first = await generateText({ model, tools: { weather }, prompt: 'a' });
    const second = await generateText({ model, tools: { weather }, prompt: 'b' });
    expect(first.toolCalls.map((c) => c.toolCallId)).toEqual(['call_1', 'mine']);
    expect(second.toolCalls.map((c) => c.toolCallId)).toEqual(['call_2']);
  });

  it('sends the exact raw argument text for malformed-argument tests', async () => {
    const model = createScriptedModel({
      steps: [{ toolCalls: [{ toolName: 'weather', input: null }], rawToolInput: '{"city": "Oslo",' }],
    });
    const direct = await model.doGenerate({ prompt: [] });
    expect(direct.content).toEqual([
      { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: '{"city": "Oslo",' },
    ]);
  });

  it('emits json as text for structured output', async () => {
    const schema = z.object({ flow: z.string(), confidence: z.number() });
    const model = createScriptedModel({ steps: [{ json: { flow: 'book', confidence: 0.9 }, repeat: true }] });

    const viaOutput = await generateText({ model, prompt: 'route', output: Output.object({ schema }) });
    const viaObject = await generateObject({ model, prompt: 'route', schema });

    expect(viaOutput.output).toEqual({ flow: 'book', confidence: 0.9 });
    expect(viaObject.object).toEqual({ flow: 'book', confidence: 0.9 });
    expect(model.calls[0]?.options.responseFormat).toMatchObject({ type: 'json' });
  });

  it('returns reasoning before the text', async () => {
    const model = createScriptedModel({ steps: [{ reasoning: 'The user greets.', text: 'Hi.' }] });
    const result = await generateText({ model, prompt: 'Hello' });
    expect(result.reasoningText).toBe('The user greets.');
    expect(result.content.map((part) => part.type)).toEqual(['reasoning', 'text']);
  });
});

describe('matching', () => {
  it('picks the first unconsumed step whose phase, flow and last user message match', async () => {
    const model = createScriptedModel({
      steps: [
        { match: { phase: 'compose' }, text: 'composed', label: 'compose' },
        { match: { phase: 'skill', flow: 'refund' }, text: 'refund skill' },
        { match: { phase: 'skill', lastUser: /book/i }, text: 'booking skill' },
        { match: { lastUser: 'cancel' }, text: 'cancel anything' },
      ],
    });
    const ask = (prompt: string, phase: string, flow?: string) =>
      generateText({ model, prompt, providerOptions: flowstack(phase, flow) }).then((r) => r.text);

    expect(await ask('Book me a room', 'skill', 'booking')).toBe('booking skill');
    expect(await ask('please cancel', 'fill-slots')).toBe('cancel anything');
    expect(await ask('money back', 'skill', 'refund')).toBe('refund skill');
    expect(await ask('thanks', 'compose')).toBe('composed');
    expect(model.calls.map((call) => call.stepIndex)).toEqual([2, 3, 1, 0]);
  });

  it('keeps answering with a repeating step, which remaining() does not count', async () => {
    const model = createScriptedModel({
      steps: [{ match: { phase: 'predict' }, json: { flow: 'chat' }, repeat: true }, { text: 'once' }],
    });
    for (let turn = 0; turn < 3; turn++) {
      await generateText({ model, prompt: `turn ${turn}`, providerOptions: flowstack('predict') });
    }
    expect(model.remaining()).toBe(1);
    expect((await generateText({ model, prompt: 'x' })).text).toBe('once');
    expect(model.remaining()).toBe(0);
    expect(model.callCount).toBe(4);
  });

  it('rejects with ScriptExhaustedError describing the call and the steps left', async () => {
    const model = createScriptedModel({
      steps: [
        { text: 'used' },
        { match: { phase: 'compose' }, text: 'x', label: 'final reply' },
        {
          match: {
            lastUser: /refund/i,
            prompt: function offersRefundTool() {
              return true;
            },
          },
          text: 'y',
          repeat: true,
        },
      ],
    });
    await generateText({ model, prompt: 'first' });
    const error = await generateText({
      model,
      tools: { weather },
      prompt: `What is the weather in Oslo tomorrow? ${'and later '.repeat(30)}`,
      providerOptions: flowstack('skill', 'weather_report'),
    }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ScriptExhaustedError);
    expect(ScriptExhaustedError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('call #2 to scripted model "scripted-model"');
    expect(message).toContain('phase: skill');
    expect(message).toContain('flow: weather_report');
    expect(message).toContain('last user: "What is the weather in Oslo tomorrow? and later');
    expect(message).toContain('…"');
    expect(message).toContain('tools offered: weather');
    expect(message).toContain('2 of 3 steps left');
    expect(message).toContain('#1 "final reply" match { phase: "compose" }');
    expect(message).toContain(
      '#2 (repeat) match { lastUser: /refund/i, prompt: <function offersRefundTool> }',
    );
    expect(model.calls[1]?.stepIndex).toBeUndefined();
    expect((error as ScriptExhaustedError).toJSON()).toMatchObject({
      code: 'script_exhausted',
      phase: 'skill',
    });
  });

  it('says so when every step is used up', async () => {
    const model = createScriptedModel({ steps: [] });
    await expect(model.doGenerate({ prompt: [] })).rejects.toThrow('all 0 steps are used up');
  });
});

describe('usage', () => {
  it('reports the step numbers in V3 shape', async () => {
    const model = createScriptedModel({
      steps: [{ text: 'ok', usage: { inputTokens: 120, outputTokens: 7 } }],
    });
    const { usage } = await model.doGenerate({ prompt: [] });
    expect(usage).toEqual({
      inputTokens: { total: 120, noCache: 120, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 7, text: 7, reasoning: 0 },
    });
  });

  it('estimates a quarter token per character of prompt and output, reasoning included', async () => {
    const model = createScriptedModel({ steps: [{ reasoning: 'abcdefgh', text: 'twelve chars' }] });
    const result = await generateText({ model, system: 'You help.', prompt: 'Say twelve chars' });
    // prompt: 9 + 16 = 25 chars → 7 tokens; output: 8 + 12 = 20 chars → 5 tokens, 2 of them reasoning
    expect(result.usage).toMatchObject({ inputTokens: 7, outputTokens: 5, totalTokens: 12 });
    expect(result.usage.outputTokenDetails).toMatchObject({ textTokens: 3, reasoningTokens: 2 });
  });

  it('falls back to defaultUsage per count', async () => {
    const model = createScriptedModel({
      steps: [{ text: 'abcd', usage: { outputTokens: 9 } }],
      defaultUsage: { inputTokens: 50 },
    });
    const result = await generateText({ model, prompt: 'x' });
    expect(result.usage).toMatchObject({ inputTokens: 50, outputTokens: 9 });
  });
});

describe('errors', () => {
  it('rejects with the step error, unchanged', async () => {
    const failure = new APICallError({
      message: 'overloaded',
      url: 'x',
      requestBodyValues: {},
      statusCode: 529,
      isRetryable: false,
    });
    const model = createScriptedModel({ steps: [{ error: failure }] });
    await expect(generateText({ model, prompt: 'x', maxRetries: 0 })).rejects.toBe(failure);
    expect(model.remaining()).toBe(0);
  });

  it('refuses a script that cannot be played', () => {
    const make = () =>
      createScriptedModel({
        steps: [{ text: 'a', json: {} }, { rawToolInput: '{' }, { toolCalls: [{ toolName: '', input: {} }] }],
      });
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(
      /step #0: give either `text` or `json`[\s\S]*step #1: `rawToolInput`[\s\S]*step #2: a tool call has an empty/,
    );
  });

  it('rejects a call whose signal is already aborted', async () => {
    const model = createScriptedModel({ steps: [{ text: 'never' }] });
    const controller = new AbortController();
    controller.abort();
    await expect(model.doGenerate({ prompt: [], abortSignal: controller.signal })).rejects.toThrow(/aborted/);
    await expect(model.doStream({ prompt: [], abortSignal: controller.signal })).rejects.toThrow(/aborted/);
  });
});

describe('respond', () => {
  it('computes a step from the call, so one step can answer any input', async () => {
    const model = createScriptedModel({
      steps: [
        {
          repeat: true,
          respond: (options) => {
            const last = options.prompt.at(-1);
            const text =
              last?.role === 'user' && last.content[0]?.type === 'text' ? last.content[0].text : '';
            return { text: `echo: ${text}` };
          },
        },
      ],
    });
    const first = await generateText({ model, prompt: 'one' });
    const second = await generateText({ model, prompt: 'two' });
    expect([first.text, second.text]).toEqual(['echo: one', 'echo: two']);
  });

  it('refuses what `respond` returns when it cannot be played, naming the problem', async () => {
    const model = createScriptedModel({
      steps: [{ repeat: true, respond: () => ({ toolCalls: [{ toolName: '', input: {} }] }) }],
    });
    const call = model.doGenerate({ prompt: [] });
    await expect(call).rejects.toThrow(ConfigurationError);
    await expect(model.doGenerate({ prompt: [] })).rejects.toThrow(
      /step #0: a tool call has an empty `toolName`/,
    );
  });
});
