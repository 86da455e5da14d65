// Required tools of a flow (seed 002 TAEF, issue 32 item 4), through createAgent: a success without the
// flow's required tool is sent back, each enforcement prompt is an observation, and a skill that never
// calls the tool does not get its unverified answer to the user.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import type { Observation } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { defineTool, type ToolDefinition } from '../tool/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createAgent } from './create-agent.js';
import { finish } from './fixtures/test-domain.js';

const booked: string[] = [];

const bookRoom = defineFlow({
  name: 'book_room',
  intent: 'transform',
  description: 'Book a meeting room.',
  slots: [],
  tools: ['find_rooms', 'reserve_room'],
  requiredTools: ['reserve_room'],
  skill: 'Find a free room and reserve it.',
});

const tools = [
  defineTool({
    name: 'find_rooms',
    description: 'Free rooms.',
    input: z.object({}),
    idempotent: true,
    execute: () => ({ rooms: ['Aurora'] }),
  }),
  defineTool({
    name: 'reserve_room',
    description: 'Reserves a room.',
    input: z.object({ room: z.string() }),
    execute: ({ room }) => {
      booked.push(room);
      return { reserved: room };
    },
  }),
] as ToolDefinition[];

function setup(steps: ScriptStep[]) {
  const model = createScriptedModel({ steps });
  const agent = createAgent({
    model,
    flows: [bookRoom],
    tools,
    rules: [{ pattern: /^book a room$/i, flow: 'book_room' }],
    store: createMemoryStore(),
    ids: createSequentialIdGenerator(),
  });
  return { agent, model };
}

const enforcements = (observations: Observation[]) =>
  observations.filter((o) => o.type === 'recovery' && o.data.action === 'enforcement').map((o) => o.data);

describe('defineFlow({ requiredTools })', () => {
  it('a success without the required tool is sent back; the retry is observed; the tool then runs', async () => {
    booked.length = 0;
    const { agent, model } = setup([
      {
        match: { phase: 'skill', prompt: (call) => !JSON.stringify(call.prompt).includes('not accepted') },
        toolCalls: finish({ outcome: 'success', data: { text: 'Booked Aurora.' } }),
      },
      { match: { phase: 'skill' }, toolCalls: [{ toolName: 'reserve_room', input: { room: 'Aurora' } }] },
      {
        match: { phase: 'skill' },
        toolCalls: finish({ outcome: 'success', data: { text: 'Reserved Aurora.' } }),
      },
    ]);
    const turn = await agent.send({ threadId: 'r1', text: 'book a room' });
    expect(turn.reply).toBe('Reserved Aurora.');
    expect(booked).toEqual(['Aurora']);
    expect(JSON.stringify(model.calls[0]?.prompt)).toContain('you must call: reserve_room');
    expect(JSON.stringify(model.calls[1]?.prompt)).toContain("requires calling 'reserve_room'");
    expect(enforcements(turn.observations)).toEqual([
      { action: 'enforcement', missing: ['reserve_room'], retry: 1, passed: false },
    ]);
  });

  it('a skill that never calls it: every retry is observed and its answer does not reach the user', async () => {
    booked.length = 0;
    const { agent } = setup([
      {
        match: { phase: 'skill' },
        toolCalls: finish({ outcome: 'success', data: { text: 'Booked Aurora.' } }),
        repeat: true,
      },
    ]);
    const turn = await agent.send({ threadId: 'r2', text: 'book a room' });
    expect(booked).toEqual([]);
    expect(turn.reply).not.toContain('Booked Aurora.');
    expect(turn.reply).toContain('I could not complete "Book a meeting room" reliably.');
    expect(
      enforcements(turn.observations)
        .slice(0, 3)
        .map((d) => d.retry),
    ).toEqual([1, 2, 2]);
    expect(
      turn.observations.find((o) => o.type === 'error' && o.data.phase === 'enforcement')?.data.missing,
    ).toEqual(['reserve_room']);
  });

  it('a required tool that is not one of the flow’s tools is refused', () => {
    expect(() =>
      defineFlow({
        name: 'broken',
        intent: 'transform',
        description: 'Broken.',
        tools: ['find_rooms'],
        requiredTools: ['reserve_room'],
      }),
    ).toThrow(ConfigurationError);
  });
});
