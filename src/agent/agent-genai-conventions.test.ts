import type { Attributes, Histogram, Meter, MetricAttributes } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createAgent } from './create-agent.js';
import { lookupWeather, secret, weatherFlow } from './fixtures/weather-flow.js';

const script: ScriptStep[] = [
  {
    match: { phase: 'predict' },
    json: { flow: 'get_weather', slots: { city: 'Oslo' } },
    usage: { inputTokens: 300, outputTokens: 20, cacheReadTokens: 256 },
  },
  {
    match: { phase: 'skill' },
    text: 'Looking it up.',
    toolCalls: [{ toolName: 'lookup_weather', input: { city: 'Oslo', apiKey: secret } }],
    usage: { inputTokens: 120, outputTokens: 14, cacheReadTokens: 64, cacheWriteTokens: 32 },
  },
  {
    match: { phase: 'skill' },
    toolCalls: [
      { toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'It is 21 °C in Oslo.' } } },
    ],
    usage: { inputTokens: 200, outputTokens: 10 },
  },
];

/** A meter that keeps every histogram record, as a metrics SDK's reader would see them. */
function createRecordingMeter() {
  const records: { name: string; unit?: string; value: number; attributes: MetricAttributes }[] = [];
  const meter = {
    createHistogram(name: string, options?: { unit?: string }): Histogram {
      return {
        record(value: number, attributes: MetricAttributes = {}) {
          records.push({ name, ...(options?.unit ? { unit: options.unit } : {}), value, attributes });
        },
      };
    },
  } as unknown as Meter;
  return { meter, records };
}

function setup(options: { stream?: boolean; recordContent?: boolean; prices?: boolean } = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const { meter, records } = createRecordingMeter();
  const agent = createAgent({
    model: createScriptedModel({ steps: script }),
    flows: [weatherFlow],
    tools: [lookupWeather],
    store: createMemoryStore(),
    ids: createSequentialIdGenerator(),
    ...(options.stream ? { stream: true } : {}),
    telemetry: {
      tracer: provider.getTracer('test'),
      agentName: 'weather-desk',
      recordContent: options.recordContent ?? true,
      meter,
      ...(options.prices
        ? { prices: { 'scripted-model': { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 2.5 } } }
        : {}),
    },
  });
  return { agent, exporter, records };
}

const json = (attributes: Attributes, key: string): unknown => JSON.parse(String(attributes[key]));

describe('GenAI semantic conventions, field by field', () => {
  for (const stream of [false, true]) {
    it(`records a chat span's request, answer and tokens in the conventions' shapes (${stream ? 'doStream' : 'doGenerate'})`, async () => {
      const { agent, exporter } = setup({ stream });
      const turn = await agent.send({ threadId: 't1', text: 'weather in Oslo?' });
      expect(turn.status).toBe('completed');
      const spans = exporter.getFinishedSpans();
      const [, toolCall, last] = spans.filter((s) => s.name === 'chat scripted-model') as ReadableSpan[];
      const attributes = toolCall?.attributes ?? {};
      expect(attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'flowstack-scripted',
        'gen_ai.request.model': 'scripted-model',
        'gen_ai.response.model': 'scripted-model',
        'gen_ai.conversation.id': 't1',
        'session.id': 't1',
        'gen_ai.response.finish_reasons': ['tool_call'],
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 14,
        'gen_ai.usage.cache_read.input_tokens': 64,
        'gen_ai.usage.cache_creation.input_tokens': 32,
      });
      // The system prompt apart from the history, as a list of parts.
      const system = json(attributes, 'gen_ai.system_instructions') as { type: string; content: string }[];
      expect(system).toEqual([{ type: 'text', content: expect.stringContaining('"get_weather"') }]);
      expect(json(attributes, 'gen_ai.input.messages')).toEqual([
        { role: 'user', parts: [{ type: 'text', content: 'weather in Oslo?' }] },
      ]);
      expect(json(attributes, 'gen_ai.output.messages')).toEqual([
        {
          role: 'assistant',
          parts: [
            { type: 'text', content: 'Looking it up.' },
            {
              type: 'tool_call',
              id: expect.any(String),
              name: 'lookup_weather',
              arguments: { city: 'Oslo', apiKey: expect.stringContaining('REDACTED') },
            },
          ],
          finish_reason: 'tool_call',
        },
      ]);
      const tools = json(attributes, 'gen_ai.tool.definitions') as Record<string, unknown>[];
      expect(tools.find((t) => t.name === 'lookup_weather')).toEqual({
        type: 'function',
        name: 'lookup_weather',
        description: 'Current weather for a city.',
        parameters: expect.objectContaining({ type: 'object', required: ['city'] }),
      });
      // The next call sees the round trip: the assistant's tool call, then the tool's response.
      const history = json(last?.attributes ?? {}, 'gen_ai.input.messages') as {
        role: string;
        parts: Record<string, unknown>[];
      }[];
      expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
      const callId = history[1]?.parts.find((p) => p.type === 'tool_call')?.id;
      expect(history[2]?.parts).toEqual([
        // The model was sent the result as text, and that is what it saw.
        { type: 'tool_call_response', id: callId, response: expect.stringContaining('"city":"Oslo"') },
      ]);
      for (const span of spans) expect(JSON.stringify(span.attributes)).not.toContain(secret);
    });
  }

  it("puts the provider, the session, the turn's tokens and its message and reply on invoke_agent", async () => {
    const { agent, exporter } = setup();
    const turn = await agent.send({ threadId: 't2', text: 'weather in Oslo?' });
    const root = exporter
      .getFinishedSpans()
      .find((s) => s.name === 'invoke_agent weather-desk') as ReadableSpan;
    expect(root.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'flowstack-scripted',
      'gen_ai.agent.name': 'weather-desk',
      'gen_ai.request.model': 'scripted-model',
      'gen_ai.conversation.id': 't2',
      'session.id': 't2',
      'gen_ai.usage.input_tokens': 620,
      'gen_ai.usage.output_tokens': 44,
      'gen_ai.usage.cache_read.input_tokens': 320,
      'gen_ai.usage.cache_creation.input_tokens': 32,
    });
    expect(json(root.attributes, 'gen_ai.input.messages')).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'weather in Oslo?' }] },
    ]);
    expect(json(root.attributes, 'gen_ai.output.messages')).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: turn.reply }], finish_reason: 'stop' },
    ]);
  });

  it('records no content without recordContent, and tool definitions by name only', async () => {
    const { agent, exporter } = setup({ recordContent: false });
    await agent.send({ threadId: 't3', text: 'weather in Oslo?' });
    const spans = exporter.getFinishedSpans();
    for (const span of spans) {
      for (const key of [
        'gen_ai.input.messages',
        'gen_ai.output.messages',
        'gen_ai.system_instructions',
        'gen_ai.tool.call.arguments',
        'gen_ai.tool.call.result',
      ])
        expect(span.attributes[key], `${span.name} ${key}`).toBeUndefined();
    }
    const skill = spans.filter((s) => s.name === 'chat scripted-model')[1] as ReadableSpan;
    const tools = json(skill.attributes, 'gen_ai.tool.definitions') as Record<string, unknown>[];
    expect(tools).toContainEqual({ type: 'function', name: 'lookup_weather' });
    expect(tools.every((t) => Object.keys(t).length === 2)).toBe(true);
  });

  it('records gen_ai.client.token.usage and gen_ai.client.operation.duration for every model call', async () => {
    const { agent, records } = setup({ recordContent: false });
    await agent.send({ threadId: 't4', text: 'weather in Oslo?' });
    const common = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'flowstack-scripted',
      'gen_ai.request.model': 'scripted-model',
      'gen_ai.response.model': 'scripted-model',
    };
    const durations = records.filter((r) => r.name === 'gen_ai.client.operation.duration');
    expect(durations).toHaveLength(3);
    for (const duration of durations) {
      expect(duration).toMatchObject({ unit: 's', attributes: common });
      expect(duration.value).toBeGreaterThanOrEqual(0);
    }
    const tokens = records.filter((r) => r.name === 'gen_ai.client.token.usage');
    expect(tokens.map((r) => [r.attributes['gen_ai.token.type'], r.value])).toEqual([
      ['input', 300],
      ['output', 20],
      ['input', 120],
      ['output', 14],
      ['input', 200],
      ['output', 10],
    ]);
    for (const record of tokens) expect(record).toMatchObject({ unit: '{token}', attributes: common });
  });

  it("marks a failed call's duration with error.type", async () => {
    const { meter, records } = createRecordingMeter();
    const agent = createAgent({
      model: createScriptedModel({ steps: [{ match: { phase: 'predict' }, error: new TypeError('down') }] }),
      flows: [weatherFlow],
      tools: [lookupWeather],
      store: createMemoryStore(),
      telemetry: { meter },
    });
    await agent.send({ threadId: 't5', text: 'weather?' });
    const failed = records.filter((r) => r.name === 'gen_ai.client.operation.duration');
    expect(failed[0]?.attributes).toMatchObject({ 'error.type': 'TypeError' });
    expect(records.some((r) => r.name === 'gen_ai.client.token.usage')).toBe(false);
  });
});

describe('TurnResult.usage', () => {
  it("adds up the turn's tokens, in total and per model, with no telemetry configured", async () => {
    const agent = createAgent({
      model: createScriptedModel({ steps: script }),
      flows: [weatherFlow],
      tools: [lookupWeather],
      store: createMemoryStore(),
    });
    const turn = await agent.send({ threadId: 'u1', text: 'weather in Oslo?' });
    const counts = {
      inputTokens: 620,
      outputTokens: 44,
      cacheReadTokens: 320,
      cacheWriteTokens: 32,
      reasoningTokens: 0,
      modelCalls: 3,
    };
    expect(turn.usage).toEqual({ ...counts, byModel: { 'scripted-model': counts } });
    expect(turn.usage?.cost).toBeUndefined();
  });

  it('prices the turn from the price table, cached input at its own price', async () => {
    const { agent } = setup({ prices: true });
    const turn = await agent.send({ threadId: 'u2', text: 'weather in Oslo?' });
    // Per million: uncached input (620 − 320 − 32) × 2, cache reads 320 × 0.5, cache writes 32 × 2.5,
    // output 44 × 8.
    const expected = (268 * 2 + 320 * 0.5 + 32 * 2.5 + 44 * 8) / 1_000_000;
    expect(turn.usage?.cost).toBeCloseTo(expected, 12);
    expect(turn.usage?.byModel['scripted-model']?.cost).toBeCloseTo(expected, 12);
  });

  it('gives no cost when a model called has no price, rather than a total that leaves it out', async () => {
    const agent = createAgent({
      model: createScriptedModel({ steps: script }),
      flows: [weatherFlow],
      tools: [lookupWeather],
      store: createMemoryStore(),
      telemetry: { prices: { 'another-model': { input: 1, output: 1 } } },
    });
    const turn = await agent.send({ threadId: 'u3', text: 'weather in Oslo?' });
    expect(turn.usage?.inputTokens).toBe(620);
    expect(turn.usage?.cost).toBeUndefined();
  });
});
