import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { finish, lookupFlow, setupAgent, testTools } from '../../agent/fixtures/test-domain.js';
import { defineFlow } from '../../flow/index.js';
import { defineTool, type ToolDefinition } from '../../tool/index.js';

/** Two tools that each wait for the other to start: they finish only when run concurrently. */
function latchedTools(order: string[]) {
  let releaseA: () => void = () => {};
  let releaseB: () => void = () => {};
  const aStarted = new Promise<void>((resolve) => {
    releaseA = resolve;
  });
  const bStarted = new Promise<void>((resolve) => {
    releaseB = resolve;
  });
  const tool = (name: string, mine: () => void, other: Promise<void>) =>
    defineTool({
      name,
      description: name,
      input: z.object({}),
      idempotent: true,
      timeoutMs: 2_000,
      execute: async () => {
        mine();
        await other;
        order.push(name);
        return { ok: name };
      },
    });
  const summarize = defineTool({
    name: 'summarize_notes',
    description: 'summarize',
    input: z.object({}),
    idempotent: true,
    execute: () => {
      order.push('summarize_notes');
      return { ok: true };
    },
  });
  return [
    tool('profile_a', releaseA, bStarted),
    tool('profile_b', releaseB, aStarted),
    summarize,
  ] as ToolDefinition[];
}

const internal = (name: string, tool: string, dependsOn?: string[]) =>
  defineFlow({
    name,
    intent: 'internal',
    description: `${name}.`,
    tools: [tool],
    ...(dependsOn ? { dependsOn } : {}),
  });

describe('Internal flows in the background', () => {
  it('run concurrently, respect their dependencies, write the scratchpad and add no reply text', async () => {
    const order: string[] = [];
    const lookup = lookupFlow({
      hooks: {
        afterComplete: () => ({
          schedule: [
            { flow: 'profile_one', slots: {} },
            { flow: 'profile_two', slots: {} },
            { flow: 'summarize', dependsOn: ['profile_one', 'profile_two'] },
          ],
        }),
      },
    });
    const flows = [
      lookup,
      internal('profile_one', 'profile_a'),
      internal('profile_two', 'profile_b'),
      internal('summarize', 'summarize_notes', ['profile_one', 'profile_two']),
    ];
    const call = (flow: string, tool: string) => [
      { match: { phase: 'skill', flow }, toolCalls: [{ toolName: tool, input: {} }] },
      {
        match: { phase: 'skill', flow },
        toolCalls: finish({ outcome: 'success', data: { text: `${flow} done` } }),
      },
    ];
    const { agent } = setupAgent({
      steps: [
        {
          match: { phase: 'skill', flow: 'lookup' },
          toolCalls: finish({ outcome: 'success', data: { text: 'It is 21 °C in Oslo.' } }),
        },
        ...call('profile_one', 'profile_a'),
        ...call('profile_two', 'profile_b'),
        ...call('summarize', 'summarize_notes'),
      ],
      flows,
      tools: [...testTools(), ...latchedTools(order)],
    });
    const turn = await agent.send({ threadId: 'bg', text: 'weather in Oslo' });
    expect(turn.reply).toBe('It is 21 °C in Oslo.');
    // The reply does not wait for them; the thread's next message does.
    await agent.send({ threadId: 'bg', text: 'thanks' });
    expect(order.slice(0, 2).sort()).toEqual(['profile_a', 'profile_b']);
    expect(order[2]).toBe('summarize_notes');
    const { snapshot } = await agent.readThread('bg');
    expect(snapshot.stack).toEqual([]);
    expect(snapshot.background).toEqual([]);
    const notes = snapshot.scratchpad.filter((e) => e.key.endsWith(':result')).map((e) => e.text);
    expect(notes).toEqual([
      'profile_one: profile_one done',
      'profile_two: profile_two done',
      'summarize: summarize done',
    ]);
    const changes = snapshot.diffs
      ?.find((d) => d.turnId === turn.turnId)
      ?.changes.filter((c) => c.op === 'schedule');
    expect(changes?.map((c) => c.op === 'schedule' && [c.name, c.dependsOn])).toEqual([
      ['profile_one', []],
      ['profile_two', []],
      ['summarize', ['flow_2', 'flow_3']],
    ]);
  });

  it('a flow whose dependency failed never runs', async () => {
    const order: string[] = [];
    const lookup = lookupFlow({
      hooks: {
        afterComplete: () => ({
          schedule: [{ flow: 'profile_one' }, { flow: 'summarize', dependsOn: ['profile_one'] }],
        }),
      },
    });
    const flows = [
      lookup,
      internal('profile_one', 'profile_a'),
      internal('summarize', 'summarize_notes', ['profile_one']),
    ];
    const { agent } = setupAgent({
      steps: [
        {
          match: { phase: 'skill', flow: 'lookup' },
          toolCalls: finish({ outcome: 'success', data: { text: 'ok' } }),
        },
        {
          match: { phase: 'skill', flow: 'profile_one' },
          toolCalls: finish({ outcome: 'failure', message: 'no data' }),
        },
      ],
      flows,
      tools: [...testTools(), ...latchedTools(order)],
    });
    await agent.send({ threadId: 'bg2', text: 'weather in Oslo' });
    await agent.send({ threadId: 'bg2', text: 'thanks' });
    expect(order).toEqual([]);
    const observations = (await agent.store.readObservations('bg2')).map(
      (row) => JSON.parse(row.data) as { type: string; data: Record<string, unknown> },
    );
    const pops = observations
      .filter((o) => o.type === 'flow-pop' && o.data.background)
      .map((o) => [o.data.flow, o.data.status]);
    expect(pops).toEqual([
      ['profile_one', 'invalid'],
      ['summarize', 'invalid'],
    ]);
  });
});
