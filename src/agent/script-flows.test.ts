// SCRIPT flows (seed 003, issue 32 item 1): a flow whose policy is plain code handles a whole turn with a
// model that fails on any call; its slots are still reviewed and its tools still go through the safety
// pipeline and the journal.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool, type ToolDefinition } from '../tool/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createAgent } from './create-agent.js';

const rates: Record<string, number> = { EUR: 1.1, GBP: 1.3 };

function setup() {
  const lookedUp: string[] = [];
  const tools = [
    defineTool({
      name: 'exchange_rate',
      description: 'The dollar price of one unit of a currency.',
      input: z.object({ currency: z.string().length(3) }),
      idempotent: true,
      // A restricted tool's call is simulated by the model before it runs, except in a script.
      capability: 'restricted',
      execute: ({ currency }) => {
        lookedUp.push(currency);
        const rate = rates[currency];
        if (rate === undefined) throw new Error(`no rate for ${currency}`);
        return { rate };
      },
    }),
    defineTool({
      name: 'wire_money',
      description: 'Sends money abroad.',
      input: z.object({ amount: z.number() }),
      capability: 'privileged',
      execute: () => ({ sent: true }),
    }),
  ] as ToolDefinition[];
  const convert = defineFlow({
    name: 'convert',
    intent: 'read',
    description: 'Convert an amount of a currency to dollars.',
    slots: [
      { name: 'amount', type: 'number', priority: 'required', description: 'Amount', question: 'How much?' },
      { name: 'currency', type: 'text', priority: 'required', description: 'Currency' },
    ],
    tools: ['exchange_rate'],
    run: async (slots, ctx) => {
      const result = await ctx.callTool('exchange_rate', { currency: String(slots.currency).toUpperCase() });
      if (result.status !== 'success') return { text: `I could not find that rate (${result.status}).` };
      const { rate } = result.output as { rate: number };
      return {
        text: `${slots.amount} ${slots.currency} is ${(Number(slots.amount) * rate).toFixed(2)} USD.`,
      };
    },
  });
  const sneaky = defineFlow({
    name: 'sneaky',
    intent: 'transform',
    description: 'Try to call a tool that is not the flow’s own.',
    tools: ['exchange_rate'],
    run: async (_slots, ctx) => {
      const result = await ctx.callTool('wire_money', { amount: 1_000 });
      return { text: `wire_money: ${result.status === 'error' ? result.error.category : result.status}` };
    },
  });
  // A pure computation: a script of a domain intent needs no tool of its own.
  const add = defineFlow({
    name: 'add',
    intent: 'transform',
    description: 'Add two numbers.',
    slots: [
      { name: 'a', type: 'number', priority: 'required', description: 'First' },
      { name: 'b', type: 'number', priority: 'required', description: 'Second' },
    ],
    run: (slots) => ({ text: `${Number(slots.a) + Number(slots.b)}` }),
  });
  const broken = defineFlow({
    name: 'broken',
    intent: 'converse',
    description: 'A script that throws.',
    run: () => {
      throw new Error('the script broke');
    },
  });
  // Declares a required tool it only calls for some amounts (seed 002 TAEF applies to code too).
  const quote = defineFlow({
    name: 'quote',
    intent: 'read',
    description: 'Quote a price in dollars.',
    slots: [{ name: 'amount', type: 'number', priority: 'required', description: 'Amount' }],
    tools: ['exchange_rate'],
    requiredTools: ['exchange_rate'],
    run: async (slots, ctx) => {
      if (Number(slots.amount) === 0) return { text: '0 USD.' };
      const result = await ctx.callTool('exchange_rate', { currency: 'EUR' });
      const rate = result.status === 'success' ? (result.output as { rate: number }).rate : 0;
      return { text: `${(Number(slots.amount) * rate).toFixed(2)} USD.` };
    },
  });
  const store = createMemoryStore();
  // A model that fails on every call: the script has no step to answer anything.
  const model = createScriptedModel({ steps: [] });
  const agent = createAgent({
    model,
    flows: [convert, sneaky, add, broken, quote],
    tools,
    store,
    rules: [
      { pattern: /^convert (?:(?<amount>\d+) )?(?<currency>[a-z]{3})$/i, flow: 'convert' },
      { pattern: /^sneak$/i, flow: 'sneaky' },
      { pattern: /^break$/i, flow: 'broken' },
      { pattern: /^(?<a>\d+) plus (?<b>\d+)$/i, flow: 'add' },
      { pattern: /^quote (?<amount>\d+)$/i, flow: 'quote' },
    ],
    ids: createSequentialIdGenerator(),
  });
  return { agent, model, store, lookedUp };
}

describe('SCRIPT flows: defineFlow({ run })', () => {
  it('handles a full turn with a model that fails on any call; the tool call is journaled', async () => {
    const { agent, model, store, lookedUp } = setup();
    const turn = await agent.send({ threadId: 's1', text: 'convert 100 eur' });
    expect(turn.status).toBe('completed');
    expect(turn.reply).toBe('100 eur is 110.00 USD.');
    expect(model.callCount).toBe(0);
    expect(lookedUp).toEqual(['EUR']);
    const intent = turn.observations.find((o) => o.type === 'intent');
    expect(intent?.data).toMatchObject({ source: 'fast-path', flow: 'convert', strategy: 'script' });
    const calls = turn.observations.filter((o) => o.type === 'tool-call' || o.type === 'tool-execution');
    expect(calls.map((o) => [o.type, o.data.toolName, o.data.status])).toEqual([
      ['tool-call', 'exchange_rate', undefined],
      ['tool-execution', 'exchange_rate', 'success'],
    ]);
    // The call went through the journal: its row holds the result under the call's idempotency key.
    const key = `s1:${turn.turnId}:${String(calls[0]?.data.callId)}`;
    expect((await store.readJournal(key))?.status).toBe('succeeded');
  });

  it('reviews its slots: a missing one is asked, the answer runs the script, still with no model call', async () => {
    const { agent, model } = setup();
    const asked = await agent.send({ threadId: 's2', text: 'convert gbp' });
    expect(asked.status).toBe('needs-input');
    expect(asked.reply).toBe('How much?');
    const answered = await agent.send({ threadId: 's2', text: '10' });
    expect(answered.reply).toBe('10 gbp is 13.00 USD.');
    expect(model.callCount).toBe(0);
  });

  it('its calls go through the safety pipeline: a tool that is not the flow’s own is refused', async () => {
    const { agent, model } = setup();
    const turn = await agent.send({ threadId: 's3', text: 'sneak' });
    expect(turn.reply).toBe('wire_money: not_found');
    const execution = turn.observations.find((o) => o.type === 'tool-execution');
    expect(execution?.data).toMatchObject({ toolName: 'wire_money', status: 'error' });
    expect(model.callCount).toBe(0);
  });

  it('a pure computation needs no tool of its own', async () => {
    const { agent, model } = setup();
    const turn = await agent.send({ threadId: 's5', text: '2 plus 3' });
    expect(turn.reply).toBe('5');
    expect(model.callCount).toBe(0);
  });

  it('its required tools are enforced: a result without them is a failure, not an answer', async () => {
    const { agent, model } = setup();
    const priced = await agent.send({ threadId: 's6', text: 'quote 10' });
    expect(priced.reply).toBe('11.00 USD.');
    const skipped = await agent.send({ threadId: 's7', text: 'quote 0' });
    expect(skipped.status).toBe('failed');
    expect(skipped.reply).toContain('The script ended without calling its required tools: exchange_rate.');
    expect(model.callCount).toBe(0);
  });

  it('a script that throws fails the turn with its message, and no model is asked to recover', async () => {
    const { agent, model } = setup();
    const turn = await agent.send({ threadId: 's4', text: 'break' });
    expect(turn.status).toBe('failed');
    expect(turn.reply).toContain('the script broke');
    expect(model.callCount).toBe(0);
  });
});
