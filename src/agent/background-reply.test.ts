// Background Internal flows (seed 001, issue 32 item 6): they run beside the user-facing flow and do not
// hold up its reply; their results land in the scratchpad, where the thread's next turn reads them.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFlow } from '../flow/index.js';
import { defineTool, type ToolDefinition } from '../tool/index.js';
import { finish, lookupFlow, reportFlow, setupAgent, testTools } from './fixtures/test-domain.js';

const slowNotes = defineTool({
  name: 'slow_notes',
  description: 'What is known about a city; takes a while.',
  input: z.object({ city: z.string() }),
  idempotent: true,
  execute: async ({ city }) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { city, notes: 'fjords and ferries' };
  },
}) as ToolDefinition;

const gatherNotes = defineFlow({
  name: 'gather_notes',
  intent: 'internal',
  description: 'Gather notes about a city.',
  tools: ['slow_notes'],
});

describe('background Internal flows', () => {
  it('do not delay the reply; the next turn reads their result from the scratchpad', async () => {
    const lookup = lookupFlow({
      hooks: { afterComplete: () => ({ schedule: [{ flow: 'gather_notes', slots: {} }] }) },
    });
    const { agent, model } = setupAgent({
      flows: [lookup, reportFlow(), gatherNotes],
      tools: [...testTools(), slowNotes],
      steps: [
        {
          match: { phase: 'skill', flow: 'lookup' },
          toolCalls: finish({ outcome: 'success', data: { text: 'It is 21 °C in Oslo.' } }),
        },
        {
          match: { phase: 'skill', flow: 'gather_notes' },
          toolCalls: [{ toolName: 'slow_notes', input: { city: 'Oslo' } }],
        },
        {
          match: { phase: 'skill', flow: 'gather_notes' },
          toolCalls: finish({ outcome: 'success', data: { text: 'Oslo: fjords and ferries.' } }),
        },
        {
          match: { phase: 'skill', flow: 'report' },
          toolCalls: [{ toolName: 'memory_manager', input: { operation: 'read_scratchpad' } }],
        },
        {
          match: { phase: 'skill', flow: 'report' },
          toolCalls: finish({ outcome: 'success', data: { text: 'Oslo: 21 °C, fjords and ferries.' } }),
        },
      ],
    });
    const started = performance.now();
    const turn = await agent.send({ threadId: 'bg', text: 'weather in Oslo' });
    const elapsed = performance.now() - started;
    expect(turn.reply).toBe('It is 21 °C in Oslo.');
    // The background flow's tool alone takes 300 ms.
    expect(elapsed).toBeLessThan(200);
    expect(turn.observations.some((o) => o.type === 'flow-pop' && o.data.background)).toBe(false);

    const next = await agent.send({ threadId: 'bg', text: 'report on Oslo' });
    expect(next.reply).toBe('Oslo: 21 °C, fjords and ferries.');
    // The report's skill read the scratchpad and found what the background flow wrote there.
    const afterRead = model.calls.filter((c) => c.flow === 'report').at(-1);
    expect(JSON.stringify(afterRead?.prompt)).toContain('gather_notes: Oslo: fjords and ferries.');
    const { snapshot } = await agent.readThread('bg');
    expect(snapshot.background).toEqual([]);
    // The background flow's own record carries the id of the turn that started it.
    const observations = (await agent.store.readObservations('bg')).map(
      (row) => JSON.parse(row.data) as { type: string; turnId: string; data: Record<string, unknown> },
    );
    const pop = observations.find((o) => o.type === 'flow-pop' && o.data.background);
    expect(pop).toMatchObject({ turnId: turn.turnId, data: { flow: 'gather_notes', status: 'completed' } });
    await agent.close();
  });
});
