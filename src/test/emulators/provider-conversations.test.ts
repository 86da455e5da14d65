/**
 * Whole conversations through each real `@ai-sdk/*` provider pointed at its emulator, streamed and not:
 * a tool call, a clarification that keeps the slot the first message gave, an approval, and a plan.
 * Every emulator refuses what its provider refuses, so "no rejections" means the requests are valid.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTripDomain } from '../../agent/fixtures/plan-domain.js';
import { createAgent } from '../../agent/index.js';
import { defineFlow } from '../../flow/index.js';
import { createTransferTool } from '../../server/fixtures/transfer-agent.js';
import { createMemoryStore } from '../../store/index.js';
import { defineTool, type ToolDefinition } from '../../tool/index.js';
import { createSequentialIdGenerator } from '../../util/index.js';
import { convertCurrencyFlow } from './fixtures/convert-currency-flow.js';
import {
  type EmulatedCall,
  type EmulatedProvider,
  type EmulatorReply,
  type ProviderEmulator,
  startProviderEmulator,
} from './index.js';

const providers: [string, EmulatedProvider, (url: string) => LanguageModelV3][] = [
  [
    'openai(id), Responses',
    'openai-responses',
    (url) => createOpenAI({ baseURL: url, apiKey: 'test' })('gpt-5-mini'),
  ],
  [
    'openai.chat(id)',
    'openai-chat',
    (url) => createOpenAI({ baseURL: url, apiKey: 'test' }).chat('gpt-5-mini'),
  ],
  [
    'anthropic claude-sonnet-4-5',
    'anthropic',
    (url) => createAnthropic({ baseURL: url, apiKey: 'test' })('claude-sonnet-4-5'),
  ],
  // An older Claude without native structured output: @ai-sdk/anthropic forces a `json` tool instead.
  [
    'anthropic claude-3-haiku (json tool)',
    'anthropic',
    (url) => createAnthropic({ baseURL: url, apiKey: 'test' })('claude-3-haiku-20240307'),
  ],
  [
    'openai-compatible',
    'openai-compatible',
    (url) =>
      createOpenAICompatible({
        name: 'vllm',
        baseURL: url,
        supportsStructuredOutputs: true,
        includeUsage: true,
      })('qwen3'),
  ],
];

let emulator: ProviderEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** What a structured call asks for, read from its schema as a model reads the request. */
function kindOf(call: EmulatedCall): string {
  const properties = (call.schema?.properties ?? {}) as Record<string, { enum?: unknown[] }>;
  if ('flow' in properties && 'slots' in properties) return 'route';
  if ('slots' in properties) return 'fill-slots';
  if ('title' in properties && 'items' in properties) return 'plan';
  if ('content' in properties) return 'synthesis';
  const decisions = properties.decision?.enum ?? [];
  if (decisions.includes('reorder')) return 'replan';
  if (decisions.includes('finish')) return 'review';
  if (decisions.includes('abandon')) return 'refine';
  return call.toolNames.includes('finish_skill') ? 'skill' : 'other';
}

/** Slot values in the shape the call's schema asks: name/value pairs under strict schemas. */
function slotsFor(schema: unknown, slots: Record<string, unknown>): unknown {
  return (schema as { type?: unknown } | undefined)?.type === 'array' ||
    (Array.isArray((schema as { type?: unknown })?.type) &&
      (schema as { type: string[] }).type.includes('array'))
    ? Object.entries(slots).map(([name, value]) => ({ name, value }))
    : slots;
}

function routeTo(call: EmulatedCall, flow: string, slots: Record<string, unknown>): EmulatorReply {
  const slotSchema = (call.schema?.properties as Record<string, unknown> | undefined)?.slots;
  return { json: { flow, slots: slotsFor(slotSchema, slots) } };
}

function finishWith(input: Record<string, unknown>): EmulatorReply {
  return { toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', ...input } }] };
}

const noRejections = (e: ProviderEmulator | undefined) => expect(e?.rejections ?? []).toEqual([]);

describe.each(providers)('conversations through %s', (_label, provider, createModel) => {
  describe.each([false, true])('stream: %s', (stream) => {
    it('calls a tool and replies with the message, not the data as JSON', async () => {
      const convert = defineTool({
        name: 'convert',
        description: 'Convert USD to another currency.',
        input: z.object({ amount: z.number(), to: z.enum(['EUR', 'GBP']) }),
        idempotent: true,
        execute: ({ amount, to }) => ({ amount: Math.round(amount * 0.92), currency: to }),
      });
      emulator = await startProviderEmulator(provider, (call) => {
        const kind = kindOf(call);
        if (kind === 'route') return routeTo(call, 'convert_currency', { amount: 100, to: 'EUR' });
        if (kind === 'fill-slots') return { json: { slots: [] } };
        if (!call.afterToolResult)
          return { toolCalls: [{ toolName: 'convert', input: { amount: 100, to: 'EUR' } }] };
        return finishWith({ data: { amount: 92, currency: 'EUR' }, summary: '100 USD is 92 EUR.' });
      });
      const agent = createAgent({
        model: createModel(emulator.url),
        flows: [convertCurrencyFlow],
        tools: [convert],
        store: createMemoryStore(),
        stream,
      });
      const turn = await agent.send({ threadId: 't1', text: 'Convert 100 USD to EUR' });
      noRejections(emulator);
      expect(turn.status).toBe('completed');
      expect(turn.reply).toBe('100 USD is 92 EUR.');
      expect(turn.frames[0]?.data).toEqual({ amount: 92, currency: 'EUR' });
      expect(emulator.requests.every((r) => (r.stream === true) === stream)).toBe(true);
    });

    it('keeps Lisbon from the first message, asks only for the day, and books once the user approves', async () => {
      const bookings: unknown[] = [];
      const bookFlight = defineTool({
        name: 'book_flight',
        description: 'Book a flight.',
        input: z.object({ destination: z.string(), day: z.string() }),
        requiresApproval: true,
        execute: (input) => {
          bookings.push(input);
          return { booking: 'TP123', ...input };
        },
      }) as ToolDefinition;
      emulator = await startProviderEmulator(provider, (call) => {
        const kind = kindOf(call);
        const friday = /friday/i.test(call.lastUser);
        if (kind === 'route') {
          const choices =
            (call.schema?.properties as { flow?: { enum?: string[] } } | undefined)?.flow?.enum ?? [];
          if (friday)
            return routeTo(call, choices.includes('answer') ? 'answer' : 'book_flight', { day: 'Friday' });
          return routeTo(call, 'book_flight', { destination: 'Lisbon' });
        }
        if (kind === 'fill-slots') {
          const slots = call.schema?.properties as Record<string, unknown>;
          return { json: { slots: slotsFor(slots.slots, friday ? { day: 'Friday' } : {}) } };
        }
        if (!call.afterToolResult)
          return {
            toolCalls: [{ toolName: 'book_flight', input: { destination: 'Lisbon', day: 'Friday' } }],
          };
        return finishWith({ message: 'Booked TP123 to Lisbon on Friday.', data: { booking: 'TP123' } });
      });
      const agent = createAgent({
        model: createModel(emulator.url),
        flows: [
          defineFlow({
            name: 'book_flight',
            intent: 'prepare',
            description: 'Book a flight to a destination on a day.',
            slots: [
              {
                name: 'destination',
                type: 'text',
                priority: 'required',
                description: 'Destination city',
                question: 'Where to?',
              },
              { name: 'day', type: 'text', priority: 'required', description: 'Day', question: 'Which day?' },
            ],
            tools: ['book_flight'],
          }),
        ],
        tools: [bookFlight],
        store: createMemoryStore(),
        stream,
      });
      const first = await agent.send({ threadId: 't1', text: 'I want to fly to Lisbon' });
      noRejections(emulator);
      expect(first.status).toBe('needs-input');
      expect(first.reply).toContain('Which day?');
      expect(first.reply).not.toContain('Where to?');

      // The answer is the slot's value as shown in the confirmation; the model's call must carry exactly
      // what was shown for the yes to cover it (docs/decisions/0056).
      const second = await agent.send({ threadId: 't1', text: 'Friday' });
      noRejections(emulator);
      expect(second.status).toBe('needs-input');
      expect(second.reply).toMatch(/destination: Lisbon.*Shall I go ahead/);

      expect(bookings).toEqual([]);

      // The tool needs approval: the confirmation of the slots is that approval.
      const approved = await agent.send({ threadId: 't1', text: 'yes' });
      noRejections(emulator);
      expect(approved.status).toBe('completed');
      expect(approved.reply).toBe('Booked TP123 to Lisbon on Friday.');
      expect(bookings).toEqual([{ destination: 'Lisbon', day: 'Friday' }]);
    });

    it('suspends a restricted call for approval and, approved, runs it and replies', async () => {
      const done: string[] = [];
      const transfer = createTransferTool(done) as ToolDefinition;
      emulator = await startProviderEmulator(provider, (call) => {
        const kind = kindOf(call);
        if (kind === 'route') return routeTo(call, 'pay_bills', {});
        if (!call.afterToolResult)
          return { toolCalls: [{ toolName: 'transfer', input: { to: 'ana', amount: 10 } }] };
        return finishWith({ message: 'Paid Ana 10 EUR.' });
      });
      const agent = createAgent({
        model: createModel(emulator.url),
        flows: [
          defineFlow({
            name: 'pay_bills',
            intent: 'transform',
            description: 'Pay the bills the user names.',
            tools: ['transfer'],
          }),
        ],
        tools: [transfer],
        store: createMemoryStore(),
        toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
        stream,
      });
      const asked = await agent.send({ threadId: 't1', text: 'Pay Ana 10 euros' });
      noRejections(emulator);
      expect(asked.status).toBe('suspended');
      expect(asked.suspensions?.[0]).toMatchObject({ kind: 'approval', toolName: 'transfer' });
      expect(done).toEqual([]);

      const approved = await agent.resume({
        threadId: 't1',
        suspensionId: asked.suspensions?.[0]?.id ?? '',
        feedback: { decision: 'approve' },
      });
      // The resumed run sent the call and its result back to the provider, paired as it requires.
      noRejections(emulator);
      expect(approved.status).toBe('completed');
      expect(approved.reply).toBe('Paid Ana 10 EUR.');
      expect(done).toEqual(['ana:10']);
    });

    it('plans, runs the items with their tools, and replies with the synthesis', async () => {
      const domain = createTripDomain();
      let synthesisPrompt = '';
      const flowTools: Record<string, [string, Record<string, string>]> = {
        search_flights: ['find_flights', { destination: 'Lisbon' }],
        check_weather: ['lookup_weather', { city: 'Lisbon' }],
      };
      emulator = await startProviderEmulator(provider, (call) => {
        const kind = kindOf(call);
        if (kind === 'route') return routeTo(call, 'plan', {});
        if (kind === 'plan') {
          const items = [
            {
              id: 'flights',
              description: 'Find flights to Lisbon',
              flow: 'search_flights',
              slots: { destination: 'Lisbon' },
            },
            {
              id: 'weather',
              description: 'Check the weather in Lisbon',
              flow: 'check_weather',
              slots: { city: 'Lisbon' },
            },
          ];
          const itemSchema = (
            call.schema?.properties as
              | { items?: { items?: { properties?: { slots?: unknown } } } }
              | undefined
          )?.items?.items?.properties?.slots;
          return {
            json: {
              title: 'Weekend in Lisbon',
              items: items.map((i) => ({ ...i, slots: slotsFor(itemSchema, i.slots) })),
            },
          };
        }
        if (kind === 'replan') return { json: { decision: 'continue' } };
        if (kind === 'review') return { json: { decision: 'finish' } };
        if (kind === 'synthesis') {
          synthesisPrompt = call.system;
          return { json: { content: 'Flights TP123 at €120; sunny, 24 °C.' } };
        }
        if (kind === 'fill-slots') return { json: { slots: [] } };
        const flow = Object.keys(flowTools).find((name) => call.system.includes(`"${name}"`));
        const tool = flow ? flowTools[flow] : undefined;
        if (tool && !call.afterToolResult) return { toolCalls: [{ toolName: tool[0], input: tool[1] }] };
        if (flow === 'search_flights')
          return finishWith({
            message: 'TP123 at €120',
            data: { flights: [{ id: 'TP123', price_eur: 120 }] },
          });
        return finishWith({ message: 'sunny, 24 °C' });
      });
      const agent = createAgent({
        model: createModel(emulator.url),
        flows: domain.flows,
        tools: domain.tools,
        store: createMemoryStore(),
        ids: createSequentialIdGenerator(),
        plan: { treeSearch: 'off' },
        stream,
      });
      const turn = await agent.send({ threadId: 't1', text: 'Plan a weekend in Lisbon' });
      noRejections(emulator);
      expect(turn.status).toBe('completed');
      expect(turn.reply).toContain('Flights TP123 at €120; sunny, 24 °C.');
      expect(turn.reply).not.toMatch(/^\s*[{[]/);
      expect(domain.executions).toMatchObject({ find_flights: 1, lookup_weather: 1 });
      // Each item's line in the plan is the skill's own words; its data stays in the step's output.
      expect(synthesisPrompt).toContain(
        'Find flights to Lisbon; flow search_flights {"destination":"Lisbon"}; → TP123 at €120',
      );
    });
  });
});
