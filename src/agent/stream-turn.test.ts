import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { secrets } from '../redact/fixtures/fake-secrets.js';
import type { Observation } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import type { TurnStreamPart } from '../turn/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createAgent } from './create-agent.js';
import { type ChunkedStreamOptions, createChunkedStreamModel } from './fixtures/chunked-stream-model.js';
import { weatherFlow } from './fixtures/weather-flow.js';

const lookupWeather = defineTool({
  name: 'lookup_weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string() }),
  idempotent: true,
  execute: ({ city }) => ({ city, celsius: 21 }),
});

const predict: ScriptStep = {
  match: { phase: 'predict' },
  json: { flow: 'get_weather', slots: { city: 'Oslo' } },
  repeat: true,
};
const lookUp: ScriptStep = {
  match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
  toolCalls: [{ toolName: 'lookup_weather', input: { city: 'Oslo' } }],
};
const answer = (text: string, reasoning?: string): ScriptStep => ({
  match: { phase: 'skill', prompt: (call) => call.prompt.some((m) => m.role === 'tool') },
  text,
  ...(reasoning ? { reasoning } : {}),
});

/** Words as deltas, the way providers stream them. */
const byWords = (text: string) => text.split(/(?<= )/);

function setup(
  steps: ScriptStep[],
  options: { stream?: ChunkedStreamOptions; redact?: boolean; agentStreams?: boolean } = {},
) {
  const model = createChunkedStreamModel(
    createScriptedModel({ steps }),
    options.stream ?? { chunk: byWords },
  );
  const agent = createAgent({
    model,
    flows: [weatherFlow],
    tools: [lookupWeather],
    store: createMemoryStore(),
    ids: createSequentialIdGenerator(),
    ...(options.agentStreams ? { stream: true } : {}),
    ...(options.redact
      ? { redact: { text: (t: string) => t.replaceAll('Oslo', 'O***'), value: (v: unknown) => v } }
      : {}),
  });
  return { agent };
}

async function collect(parts: AsyncIterable<TurnStreamPart>): Promise<TurnStreamPart[]> {
  const seen: TurnStreamPart[] = [];
  for await (const part of parts) seen.push(part);
  return seen;
}

const deltasOf = (parts: TurnStreamPart[], type: 'text-delta' | 'reasoning-delta') =>
  parts.flatMap((p) => (p.type === type ? [p.delta] : []));

describe('agent.stream', () => {
  it('yields the reply as it is written, tool calls live and the result last; the deltas make the stored reply', async () => {
    const reply = 'It is 21 °C and sunny in Oslo today.';
    const { agent } = setup([predict, lookUp, answer(reply, 'The tool says 21 degrees.')]);
    const parts = await collect(agent.stream({ threadId: 't1', text: 'weather in Oslo?' }));

    const text = deltasOf(parts, 'text-delta');
    expect(text.length).toBeGreaterThan(3);
    expect(text.join('')).toBe(reply);
    expect(deltasOf(parts, 'reasoning-delta').join('')).toBe('The tool says 21 degrees.');
    const kinds = parts.map((p) => p.type);
    expect(kinds.lastIndexOf('reasoning-delta')).toBeLessThan(kinds.indexOf('text-delta'));
    const finish = parts.at(-1);
    expect(finish?.type).toBe('finish');
    if (finish?.type !== 'finish') return;
    expect(finish.result.reply).toBe(reply);
    const stored = await agent.readThread('t1');
    expect(stored.messages.at(-1)).toMatchObject({ role: 'assistant', text: reply });

    const order = parts.map((p) => p.type);
    expect(order.indexOf('tool-call-start')).toBeLessThan(order.indexOf('tool-call-end'));
    expect(order.indexOf('tool-call-end')).toBeLessThan(order.indexOf('text-delta'));
    expect(parts).toContainEqual(
      expect.objectContaining({
        type: 'flow-change',
        observation: expect.objectContaining({ type: 'flow-push' }),
      }),
    );
    // Every piece of the one answer carries the same id.
    expect(new Set(parts.flatMap((p) => (p.type === 'text-delta' ? [p.id] : []))).size).toBe(1);
    await agent.close();
  });

  it("streams finish_skill's message as the model writes it: its deltas make the stored reply", async () => {
    const reply = 'It is 21 °C and sunny in Oslo today, with a light breeze from the west.';
    const finishStep: ScriptStep = {
      match: { phase: 'skill', prompt: (call) => call.prompt.some((m) => m.role === 'tool') },
      text: 'Here it is.',
      toolCalls: [
        {
          toolName: 'finish_skill',
          input: { outcome: 'success', message: ` ${reply} `, data: { city: 'Oslo', celsius: 21 } },
        },
      ],
    };
    const { agent } = setup([predict, lookUp, finishStep]);
    const parts = await collect(agent.stream({ threadId: 't1', text: 'weather in Oslo?' }));

    const finish = parts.at(-1);
    if (finish?.type !== 'finish') throw new Error('the stream ends with finish');
    expect(finish.result.reply).toBe(reply);
    // The model's own text before the call is one answer; the message, the reply, is the next one.
    const ids = [...new Set(parts.flatMap((p) => (p.type === 'text-delta' ? [p.id] : [])))];
    expect(ids).toHaveLength(2);
    const byId = (id: string | undefined) =>
      parts.flatMap((p) => (p.type === 'text-delta' && p.id === id ? [p.delta] : []));
    expect(byId(ids[0]).join('')).toBe('Here it is.');
    const message = byId(ids[1]);
    expect(message.length).toBeGreaterThan(1);
    expect(message.join('')).toBe(reply);
    await agent.close();
  });

  it('redacts a secret that the model splits across two deltas, and stores the reply redacted too', async () => {
    const key = secrets.openaiProject;
    const reply = `Use the key ${key} for the weather service.`;
    const split = reply.indexOf(key) + 20;
    const { agent } = setup([predict, lookUp, answer(reply)], {
      stream: { chunk: (text) => (text === reply ? [text.slice(0, split), text.slice(split)] : [text]) },
    });
    const parts = await collect(agent.stream({ threadId: 't1', text: 'weather in Oslo?' }));
    const shown = deltasOf(parts, 'text-delta').join('');
    expect(shown).not.toContain(key.slice(0, 20));
    expect(shown).not.toContain(key.slice(20));
    expect(shown).toMatch(/^Use the key \[REDACTED:[a-z-]+\] for the weather service\.$/);
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.result.reply).toBe(shown);
    await agent.close();
  });

  it("applies the agent's own redaction to the deltas as well", async () => {
    const { agent } = setup([predict, lookUp, answer('Sunny in Oslo.')], { redact: true });
    const parts = await collect(agent.stream({ threadId: 't1', text: 'weather in Oslo?' }));
    expect(deltasOf(parts, 'text-delta').join('')).toBe('Sunny in O***.');
    await agent.close();
  });

  it('stops the turn when the reader leaves the loop early, and the thread takes the next message', async () => {
    const steps = [
      predict,
      lookUp,
      answer('It is 21 °C and sunny in Oslo today.'),
      lookUp,
      answer('Still 21 °C.'),
    ];
    const delivered: string[] = [];
    const { agent } = setup(steps, {
      stream: { chunk: byWords, holdAfter: 2, onDelta: (d) => delivered.push(d) },
    });
    const seen: TurnStreamPart[] = [];
    for await (const part of agent.stream({ threadId: 't1', text: 'weather in Oslo?' })) {
      seen.push(part);
      if (part.type === 'text-delta') break;
    }
    // The model was left hanging mid-answer: only leaving the loop stopped it, and the turn has settled.
    expect(delivered.join('')).toContain('It is ');
    expect(delivered.join('')).not.toContain('21');
    expect(seen.at(-1)?.type).toBe('text-delta');
    const stopped = await agent.readThread('t1');
    expect(stopped.messages.at(-1)?.role).toBe('assistant');

    const next = await agent.send({ threadId: 't1', text: 'and now?' });
    expect(next.status).not.toBe('failed');
    await agent.close();
  });

  it('gives the deltas of a streaming agent to progress subscribers of send(), live only: none is stored', async () => {
    const reply = 'It is 21 °C and sunny in Oslo today.';
    const { agent } = setup([predict, lookUp, answer(reply)], { agentStreams: true });
    const live: Observation[] = [];
    agent.subscribe((observation) => live.push(observation), { threadId: 't1', progress: true });
    const result = await agent.send({ threadId: 't1', text: 'weather in Oslo?' });
    const deltas = live.filter((o) => o.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((o) => o.id === 0)).toBe(true);
    expect(deltas.map((o) => o.data.delta).join('')).toBe(result.reply);
    expect(result.observations.map((o) => o.type)).not.toContain('text-delta');
    expect(result.observations.find((o) => o.type === 'final-response')?.data.text).toBe(reply);
    await agent.close();
  });

  it('tells the reader to drop an answer the loop gave up (cut off at the length limit) and asked again', async () => {
    const reply = 'It is 21 °C and sunny in Oslo today.';
    const cutOff: ScriptStep = { ...answer('It is 21 °C and'), finishReason: 'length' };
    const { agent } = setup([predict, lookUp, cutOff, answer(reply)]);
    const parts = await collect(agent.stream({ threadId: 't1', text: 'weather in Oslo?' }));
    const dropped = new Set(parts.flatMap((p) => (p.type === 'text-discard' ? [p.id] : [])));
    expect(dropped.size).toBe(1);
    const kept = parts.flatMap((p) => (p.type === 'text-delta' && !dropped.has(p.id) ? [p.delta] : []));
    expect(kept.join('')).toBe(reply);
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.result.reply).toBe(reply);
    await agent.close();
  });

  it('stops the turn when the caller aborts its signal', async () => {
    const { agent } = setup([predict, lookUp, answer('It is 21 °C and sunny in Oslo today.')], {
      stream: { chunk: byWords, holdAfter: 1 },
    });
    const controller = new AbortController();
    const parts: TurnStreamPart[] = [];
    for await (const part of agent.stream({
      threadId: 't1',
      text: 'weather in Oslo?',
      signal: controller.signal,
    })) {
      parts.push(part);
      if (part.type === 'text-delta') controller.abort();
    }
    const finish = parts.at(-1);
    expect(finish?.type).toBe('finish');
    // A stop ends the flow with the summary of what its run did (docs/decisions/0070), not its answer.
    expect(finish?.type === 'finish' && finish.result.reply).toBe(
      'Stopped as you asked. Done: lookup_weather (1 call). Not done: the task was not finished.',
    );
    expect(finish?.type === 'finish' && finish.result.stack).toEqual([]);
    await agent.close();
  });
});
