import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import type { Observation } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createAgent } from './create-agent.js';
import { createTripDomain } from './fixtures/plan-domain.js';
import { createTripPlanModel } from './fixtures/trip-plan-model.js';
import { lookupWeather, secret, weatherFlow } from './fixtures/weather-flow.js';

const script: ScriptStep[] = [
  { match: { phase: 'predict' }, json: { flow: 'get_weather', slots: { city: 'Oslo' } } },
  {
    match: { phase: 'skill' },
    toolCalls: [{ toolName: 'lookup_weather', input: { city: 'Oslo', apiKey: secret } }],
    usage: { inputTokens: 120, outputTokens: 14 },
  },
  {
    match: { phase: 'skill' },
    toolCalls: [
      { toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'It is 21 °C in Oslo.' } } },
    ],
  },
];

function setup(options: { stream?: boolean; steps?: ScriptStep[] } = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const agent = createAgent({
    model: createScriptedModel({ steps: options.steps ?? script }),
    flows: [weatherFlow],
    tools: [lookupWeather],
    store: createMemoryStore(),
    ids: createSequentialIdGenerator(),
    ...(options.stream ? { stream: true } : {}),
    telemetry: { tracer: provider.getTracer('test'), agentName: 'weather-desk', recordContent: true },
  });
  return { agent, exporter };
}

/** The spans as a tree of names, children in start order. */
function tree(spans: readonly ReadableSpan[], parentId?: string): unknown[] {
  return spans
    .filter((s) => s.parentSpanContext?.spanId === parentId)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1])
    .map((s) => {
      const children = tree(spans, s.spanContext().spanId);
      return children.length > 0 ? { [s.name]: children } : s.name;
    });
}

describe('OpenTelemetry spans of a turn', () => {
  for (const stream of [false, true]) {
    it(`exports one trace nested turn → flow → model and tool calls (${stream ? 'doStream' : 'doGenerate'})`, async () => {
      const { agent, exporter } = setup({ stream });
      const turn = await agent.send({ threadId: 't1', text: 'weather in Oslo?', principal: 'alice' });
      expect(turn.status).toBe('completed');
      const spans = exporter.getFinishedSpans();
      expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
      expect(tree(spans)).toEqual([
        {
          'invoke_agent weather-desk': [
            'chat scripted-model',
            {
              'invoke_workflow get_weather': [
                'chat scripted-model',
                'execute_tool lookup_weather',
                'chat scripted-model',
              ],
            },
          ],
        },
      ]);
      const byName = (name: string) => spans.filter((s) => s.name === name);
      const root = byName('invoke_agent weather-desk')[0] as ReadableSpan;
      expect(root.attributes).toMatchObject({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.name': 'weather-desk',
        'gen_ai.conversation.id': 't1',
        'flowstack.turn.status': 'completed',
        'flowstack.principal': 'alice',
      });
      const [predict, firstSkill] = byName('chat scripted-model');
      expect(predict?.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'scripted-model',
        'flowstack.phase': 'predict',
        'gen_ai.request.stream': stream,
      });
      expect(firstSkill?.attributes).toMatchObject({
        'flowstack.phase': 'skill',
        'flowstack.flow.name': 'get_weather',
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 14,
        'gen_ai.response.finish_reasons': ['tool_call'],
      });
      const tool = byName('execute_tool lookup_weather')[0] as ReadableSpan;
      expect(tool.attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'lookup_weather',
        'gen_ai.tool.type': 'function',
        'flowstack.tool.status': 'success',
      });
      expect(String(tool.attributes['gen_ai.tool.call.arguments'])).toContain('Oslo');
      for (const span of spans) expect(JSON.stringify(span.attributes)).not.toContain(secret);
      expect(byName('invoke_workflow get_weather')[0]?.attributes).toMatchObject({
        'gen_ai.workflow.name': 'get_weather',
        'flowstack.flow.outcome': 'completed',
      });
    });
  }

  it('exports one trace for a plan turn: turn → plan workflow → one span per item → its model and tool calls', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const domain = createTripDomain();
    const agent = createAgent({
      model: createTripPlanModel(),
      flows: domain.flows,
      tools: domain.tools,
      store: createMemoryStore(),
      ids: createSequentialIdGenerator(),
      plan: { treeSearch: 'off' },
      telemetry: { tracer: provider.getTracer('test'), agentName: 'trip-desk' },
    });
    const turn = await agent.send({ threadId: 't1', text: 'Plan a weekend in Lisbon' });
    expect(turn.status).toBe('completed');
    const spans = exporter.getFinishedSpans();
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    const item = (description: string, tool?: string) => ({
      [`plan_item ${spans.find((s) => s.attributes['flowstack.plan.item.description'] === description)?.attributes['flowstack.plan.item.id']}`]:
        tool
          ? ['chat trip-plan', `execute_tool ${tool}`, 'chat trip-plan', 'chat trip-plan']
          : ['chat trip-plan'],
    });
    expect(tree(spans)).toEqual([
      {
        'invoke_agent trip-desk': [
          'chat trip-plan',
          {
            'invoke_workflow plan': [
              'chat trip-plan',
              item('Find flights to Lisbon', 'find_flights'),
              item('Check the weather in Lisbon', 'lookup_weather'),
              item('Find a hotel in Lisbon', 'search_hotels'),
              item('Write a two-day itinerary'),
              'chat trip-plan',
              'chat trip-plan',
            ],
          },
        ],
      },
    ]);
    const items = spans.filter((s) => s.name.startsWith('plan_item '));
    expect(items).toHaveLength(4);
    for (const span of items)
      expect(span.attributes).toMatchObject({ 'flowstack.plan.item.status': 'completed' });
    const planSpan = spans.find((s) => s.name === 'invoke_workflow plan') as ReadableSpan;
    expect(
      items.every((s) => s.attributes['flowstack.plan.id'] === planSpan.attributes['flowstack.flow.id']),
    ).toBe(true);
  });

  it('marks a failed model call and a failed turn as errors, without the secret in the message', async () => {
    const { agent, exporter } = setup({
      steps: [{ match: { phase: 'predict' }, error: new Error(`upstream said no to ${secret}`) }],
    });
    const turn = await agent.send({ threadId: 't2', text: 'weather?' });
    expect(turn.status).toBe('failed');
    const spans = exporter.getFinishedSpans();
    const chat = spans.find((s) => s.name === 'chat scripted-model') as ReadableSpan;
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(chat.status.message).toContain('upstream said no');
    expect(chat.status.message).not.toContain(secret);
    const root = spans.find((s) => s.name.startsWith('invoke_agent')) as ReadableSpan;
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('publishes live progress (id 0) to subscribers that ask for it, before the stored observations', async () => {
    const { agent } = setup();
    const seen: Observation[] = [];
    const plain: Observation[] = [];
    agent.subscribe((o) => seen.push(o), { threadId: 't3', progress: true });
    agent.subscribe((o) => plain.push(o), { threadId: 't3' });
    await agent.send({ threadId: 't3', text: 'weather in Oslo?' });
    const progress = seen.filter((o) => o.id === 0);
    expect(progress.map((o) => o.type)).toEqual([
      'model-stream-start',
      'model-stream-metadata',
      'model-stream-end',
      'model-stream-start',
      'model-stream-metadata',
      'model-stream-end',
      'tool-call',
      'tool-execution',
      'model-stream-start',
      'model-stream-metadata',
      'model-stream-end',
    ]);
    expect(progress[0]?.parentId).toBeUndefined();
    expect(progress[3]?.parentId).toBe('flow_1');
    expect(progress[6]?.data).toMatchObject({ toolName: 'lookup_weather', callId: expect.any(String) });
    expect(plain.every((o) => o.id > 0)).toBe(true);
    expect(seen.findIndex((o) => o.id > 0)).toBe(progress.length);
  });
});
