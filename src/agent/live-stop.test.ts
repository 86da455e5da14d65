// Adaptive termination (seed 004, issue 32 item 2): a stop said while a turn runs stops its skill loop at
// the next safe point, and the turn ends with a summary of what was done — no further model call.

import type { LanguageModelV3 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ThreadBusyError } from '../errors/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool, type ToolDefinition } from '../tool/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createAgent } from './create-agent.js';
import { finish, lookupFlow, setupAgent, testTools } from './fixtures/test-domain.js';

/** A weather tool that holds its call until the test lets it go. */
function slowWeather() {
  let release: () => void = () => undefined;
  let started: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const tool = defineTool({
    name: 'lookup_weather',
    description: 'Current weather for a city.',
    input: z.object({ city: z.string() }),
    idempotent: true,
    execute: async ({ city }) => {
      started();
      await gate;
      return { city, celsius: 21 };
    },
  }) as ToolDefinition;
  return { tool, release, running };
}

const steps = [
  { match: { phase: 'skill' }, toolCalls: [{ toolName: 'lookup_weather', input: { city: 'Oslo' } }] },
  { match: { phase: 'skill' }, toolCalls: finish({ outcome: 'success', data: { text: 'Sunny.' } }) },
];

describe('a stop said while a turn runs', () => {
  it('ends the running turn at its next safe point with a summary, and no further model call', async () => {
    const slow = slowWeather();
    const { agent, model } = setupAgent({ steps, tools: [slow.tool] });
    const first = agent.send({ threadId: 'w', text: 'weather in Oslo' });
    await slow.running;
    const stop = agent.send({ threadId: 'w', text: 'stop' });
    slow.release();
    const [turn, stopped] = await Promise.all([first, stop]);
    expect(turn.reply).toBe(
      'Stopped as you asked. Done: lookup_weather (1 call). Not done: the task was not finished.',
    );
    expect(turn.stack).toEqual([]);
    // The stop message is answered with the turn it stopped.
    expect(stopped).toEqual(turn);
    // One model call (the step that called the tool); the finishing step was never asked for.
    expect(model.callCount).toBe(1);
    expect(model.remaining()).toBe(1);
    expect(turn.observations.find((o) => o.type === 'recovery')?.data).toMatchObject({
      action: 'user-stop',
      flow: 'lookup',
    });
    // The stop is in the conversation, before the summary it led to.
    const { messages } = await agent.readThread('w');
    expect(messages.map((m) => m.text)).toEqual(['weather in Oslo', 'stop', turn.reply]);
    // The thread goes on as usual afterwards.
    const next = await agent.send({ threadId: 'w', text: 'thanks' });
    expect(next.reply).toBe("You're welcome.");
  });

  it('a stop with no turn running is the ordinary cancel fast path', async () => {
    const { agent, model } = setupAgent({ steps: [] });
    const turn = await agent.send({ threadId: 'idle', text: 'stop' });
    expect(turn.reply).toBe('There is nothing to cancel.');
    expect(model.callCount).toBe(0);
  });

  it('another message while a turn runs is still refused as busy', async () => {
    const slow = slowWeather();
    const { agent } = setupAgent({ steps, tools: [slow.tool] });
    const first = agent.send({ threadId: 'b', text: 'weather in Oslo' });
    await slow.running;
    const busy = await agent
      .send({ threadId: 'b', text: 'weather in Paris' })
      .catch((error: unknown) => error);
    expect(ThreadBusyError.isInstance(busy)).toBe(true);
    slow.release();
    expect((await first).reply).toBe('Sunny.');
  });

  it('a stop while the message is being routed: the flow it routed to is cancelled before it starts', async () => {
    const scripted = createScriptedModel({
      steps: [{ match: { phase: 'predict' }, json: { flow: 'lookup', slots: { city: 'Oslo' } } }],
    });
    // The routing model call waits until the test lets it go.
    let release: () => void = () => undefined;
    let arrived: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const waiting = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const held: LanguageModelV3 = {
      specificationVersion: scripted.specificationVersion,
      provider: scripted.provider,
      modelId: scripted.modelId,
      supportedUrls: {},
      doGenerate: async (options) => {
        arrived();
        await gate;
        return scripted.doGenerate(options);
      },
      doStream: async (options) => {
        arrived();
        await gate;
        return scripted.doStream(options);
      },
    };
    const routed = createAgent({
      model: held,
      flows: [lookupFlow()],
      tools: testTools(),
      store: createMemoryStore(),
      ids: createSequentialIdGenerator(),
    });
    const first = routed.send({ threadId: 'r', text: 'how warm is it in Oslo' });
    await waiting;
    const stop = routed.send({ threadId: 'r', text: 'stop' });
    release();
    const turn = await first;
    expect(await stop).toEqual(turn);
    expect(turn.reply).toBe('Stopped as you asked; "Tell the weather in a city" is cancelled.');
    expect(turn.stack).toEqual([]);
    expect(scripted.calls.map((c) => c.phase)).toEqual(['predict']);
  });
});
