/**
 * A person's no to an approval is answered as their decision (issue 34, item 3; docs/decisions/0088):
 * the user reads what was not done, in the tool's words, with their reason; the model reads the refusal
 * in its transcript; the turn is not a failure.
 */
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolCallError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import type { Clock } from '../util/index.js';
import { createAgent } from './index.js';

const clock: Clock = { now: () => 1_000_000, sleep: () => new Promise(() => {}) };

const bookTrip = defineFlow({
  name: 'book_trip',
  intent: 'transform',
  description: 'Book the flight the user names.',
  slots: [],
  tools: ['book_flight', 'hold_seat'],
  skill: 'Book the flight with book_flight.',
});

function travelAgent(steps: ScriptStep[]) {
  const booked: unknown[] = [];
  const bookFlight = defineTool({
    name: 'book_flight',
    title: 'Book a flight',
    description: 'Books a seat on a flight for a passenger.',
    input: z.object({
      flight_id: z.string().meta({ title: 'Flight' }),
      passenger: z.string().meta({ title: 'Passenger' }),
    }),
    capability: 'restricted',
    execute: (input) => {
      booked.push(input);
      return { reference: 'BK1' };
    },
  });
  const holdSeat = defineTool({
    name: 'hold_seat',
    description: 'Holds a seat for a day.',
    input: z.object({ flight_id: z.string() }),
    execute: () => {
      throw new ToolCallError({ category: 'server_error', message: 'the airline is down', retryable: false });
    },
  });
  const model = createScriptedModel({
    steps: [{ match: { phase: 'predict' }, json: { flow: 'book_trip', slots: {} }, repeat: true }, ...steps],
  });
  const agent = createAgent({
    model,
    flows: [bookTrip],
    tools: [bookFlight, holdSeat],
    store: createMemoryStore(),
    clock,
    toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
  });
  return { agent, model, booked };
}

const askToBook: ScriptStep = {
  match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
  toolCalls: [{ toolName: 'book_flight', input: { passenger: 'Ana', flight_id: 'LH123' }, callId: 'book-1' }],
};

/** The text of the last tool result the model was shown. */
function lastToolText(prompt: LanguageModelV3Prompt): string {
  const tool = prompt.findLast((m) => m.role === 'tool');
  const part = tool?.role === 'tool' ? tool.content.at(-1) : undefined;
  return part?.type === 'tool-result' && part.output.type === 'error-text' ? part.output.value : '';
}

/** A model that gives up with the tool's error as its message, as a plain model often does. */
const giveUpWithTheError: ScriptStep = {
  match: { phase: 'skill' },
  respond: (call) => ({
    toolCalls: [
      {
        toolName: 'finish_skill',
        input: { outcome: 'failure', errorCategory: 'auth_error', message: lastToolText(call.prompt) },
      },
    ],
  }),
  repeat: true,
};

describe('a rejected approval is answered as a decision', () => {
  it('"no, too expensive": the reply says in words what was not done and why; nothing ran; the model saw the refusal', async () => {
    const { agent, model, booked } = travelAgent([askToBook, giveUpWithTheError]);
    const asked = await agent.send({ threadId: 't', text: 'book LH123 for Ana' });
    expect(asked.status).toBe('suspended');
    // Asked in the tool's words, every argument shown by its title in the schema's order.
    expect(asked.reply).toContain('Book a flight (Flight: "LH123", Passenger: "Ana")?');

    const refused = await agent.send({ threadId: 't', text: 'no, too expensive' });
    expect(booked).toEqual([]);
    expect(refused.reply).toBe('OK, I did not go ahead with "Book a flight" (too expensive).');
    expect(refused.reply).not.toMatch(/Error|auth_error|book_flight|could not finish/);
    expect(refused.status).toBe('completed');
    expect(refused.suspensions).toBeUndefined();
    // The model's next call carried the refusal, with the reason, so it does not try again.
    const next = model.calls.at(-1);
    expect(next?.phase).toBe('skill');
    expect(lastToolText(next?.prompt ?? [])).toContain('The user refused this call: too expensive.');
    // The thread goes on: the flow is over, not left broken.
    const thread = await agent.readThread('t');
    expect(thread.snapshot.stack.filter((f) => f.name === 'book_trip' && f.status === 'active')).toEqual([]);
    expect(thread.snapshot.flags.hasIssues).not.toBe(true);
  });

  it('a no without a reason is said back without one', async () => {
    const { agent } = travelAgent([askToBook, giveUpWithTheError]);
    await agent.send({ threadId: 't', text: 'book LH123 for Ana' });
    const refused = await agent.send({ threadId: 't', text: 'no' });
    expect(refused.reply).toBe('OK, I did not go ahead with "Book a flight".');
  });

  it("keeps the model's own words when it answers the refusal itself", async () => {
    const { agent } = travelAgent([
      askToBook,
      {
        match: { phase: 'skill' },
        toolCalls: [
          {
            toolName: 'finish_skill',
            input: { outcome: 'success', message: 'Understood, I left LH123 unbooked.' },
          },
        ],
      },
    ]);
    await agent.send({ threadId: 't', text: 'book LH123 for Ana' });
    const refused = await agent.send({ threadId: 't', text: 'no, too expensive' });
    expect(refused.reply).toBe('Understood, I left LH123 unbooked.');
  });

  it('reports a failure that came after the refusal as the failure it is', async () => {
    const { agent, booked } = travelAgent([
      askToBook,
      // After the no, the model tries to hold the seat instead, which breaks.
      {
        match: { phase: 'skill' },
        toolCalls: [{ toolName: 'hold_seat', input: { flight_id: 'LH123' }, callId: 'hold-1' }],
      },
      giveUpWithTheError,
    ]);
    await agent.send({ threadId: 't', text: 'book LH123 for Ana' });
    const after = await agent.send({ threadId: 't', text: 'no, too expensive' });
    expect(booked).toEqual([]);
    expect(after.status).toBe('failed');
    expect(after.reply).toContain('the airline is down');
    expect(after.reply).not.toContain('OK, I did not go ahead');
  });
});
