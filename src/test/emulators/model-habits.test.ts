/**
 * Habits of real models, through the provider emulators and the real `@ai-sdk/*` clients: each ends in
 * a sensible reply or a clear question — never the data printed as JSON, a crash or a silent loop.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../../agent/index.js';
import { createMemoryStore } from '../../store/index.js';
import { defineTool } from '../../tool/index.js';
import { convertCurrencyFlow } from './fixtures/convert-currency-flow.js';
import {
  type EmulatedProvider,
  type EmulatorScriptEntry,
  type ProviderEmulator,
  routeReply,
  startProviderEmulator,
} from './index.js';

const setups: [EmulatedProvider, boolean, (url: string) => LanguageModelV3][] = [
  ['openai-chat', false, (url) => createOpenAI({ baseURL: url, apiKey: 'test' }).chat('gpt-5-mini')],
  ['anthropic', true, (url) => createAnthropic({ baseURL: url, apiKey: 'test' })('claude-sonnet-4-5')],
];

let emulator: ProviderEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const route = routeReply('convert_currency', { amount: 100, to: 'EUR' });
const convertCall: EmulatorScriptEntry = {
  toolCalls: [{ toolName: 'convert', input: { amount: 100, to: 'EUR' } }],
};
const finish = (input: Record<string, unknown>): EmulatorScriptEntry => ({
  toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', ...input } }],
});

describe.each(setups)(
  'model habits through the %s emulator (stream: %s)',
  (provider, stream, createModel) => {
    async function converse(script: EmulatorScriptEntry[], text = 'Convert 100 USD to EUR') {
      const conversions: unknown[] = [];
      const convert = defineTool({
        name: 'convert',
        description: 'Convert USD to another currency.',
        input: z.object({ amount: z.number(), to: z.enum(['EUR', 'GBP']) }),
        idempotent: true,
        execute: (input) => {
          conversions.push(input);
          return { amount: 92, currency: input.to };
        },
      });
      emulator = await startProviderEmulator(provider, script);
      const agent = createAgent({
        model: createModel(emulator.url),
        flows: [convertCurrencyFlow],
        tools: [convert],
        store: createMemoryStore(),
        stream,
      });
      const turn = await agent.send({ threadId: 't1', text });

      expect(emulator.rejections).toEqual([]);
      expect(emulator.remaining()).toBe(0);
      expect(turn.reply).not.toMatch(/^\s*[{[]/);
      return { turn, conversions };
    }

    it('prose before the JSON routing answer', async () => {
      const { turn } = await converse([
        {
          text: 'Sure! Here is the routing: {"flow": "convert_currency", "slots": [{"name": "amount", "value": 100}, {"name": "to", "value": "EUR"}]}',
        },
        convertCall,
        finish({ message: '100 USD is 92 EUR.' }),
      ]);
      expect(turn.reply).toBe('100 USD is 92 EUR.');
    });

    it('the JSON routing answer inside ```json fences', async () => {
      const { turn } = await converse([
        {
          text: '```json\n{"flow": "convert_currency", "slots": [{"name": "amount", "value": 100}, {"name": "to", "value": "EUR"}]}\n```',
        },
        convertCall,
        finish({ message: '100 USD is 92 EUR.' }),
      ]);
      expect(turn.reply).toBe('100 USD is 92 EUR.');
    });

    it('a plain text answer instead of the finish_skill call', async () => {
      const { turn, conversions } = await converse([
        route,
        convertCall,
        { text: '100 USD is 92 EUR today.' },
      ]);
      expect(turn.status).toBe('completed');
      expect(turn.reply).toBe('100 USD is 92 EUR today.');
      expect(conversions).toHaveLength(1);
    });

    it('the answer in summary, the data beside it', async () => {
      const { turn } = await converse([
        route,
        convertCall,
        finish({ data: { amount: 92, currency: 'EUR' }, summary: '100 USD is 92 EUR.' }),
      ]);
      expect(turn.reply).toBe('100 USD is 92 EUR.');
      expect(turn.frames[0]?.data).toEqual({ amount: 92, currency: 'EUR' });
    });

    it('extra keys in the routing answer and in finish_skill', async () => {
      const { turn } = await converse([
        {
          text: '{"flow": "convert_currency", "confidence": 0.93, "slots": [{"name": "amount", "value": 100, "unit": "USD"}, {"name": "to", "value": "EUR"}], "reasoning": "currency"}',
        },
        convertCall,
        finish({ message: '100 USD is 92 EUR.', confidence: 'high', sources: ['ecb'] }),
      ]);
      expect(turn.reply).toBe('100 USD is 92 EUR.');
    });

    it('a wrong enum value, then the corrected call', async () => {
      const { turn, conversions } = await converse([
        route,
        { toolCalls: [{ toolName: 'convert', input: { amount: 100, to: 'euro' } }] },
        convertCall,
        {
          toolCalls: [
            { toolName: 'finish_skill', input: { outcome: 'done', message: '100 USD is 92 EUR.' } },
          ],
        },
        finish({ message: '100 USD is 92 EUR.' }),
      ]);
      expect(turn.reply).toBe('100 USD is 92 EUR.');
      expect(conversions).toEqual([{ amount: 100, to: 'EUR' }]);
    });

    it('a flow name not in the catalog, then the corrected one', async () => {
      const { turn } = await converse([
        { text: '{"flow": "currency-conversion", "slots": [{"name": "amount", "value": 100}]}' },
        route,
        convertCall,
        finish({ message: '100 USD is 92 EUR.' }),
      ]);
      expect(turn.reply).toBe('100 USD is 92 EUR.');
      expect(JSON.stringify(emulator?.requests[1])).toContain('names no flow of the catalog');
    });

    it('a call to a tool that does not exist', async () => {
      const { turn, conversions } = await converse([
        route,
        { toolCalls: [{ toolName: 'currency_converter', input: { from: 'USD', to: 'EUR', amount: 100 } }] },
        convertCall,
        finish({ message: '100 USD is 92 EUR.' }),
      ]);
      expect(turn.reply).toBe('100 USD is 92 EUR.');
      expect(conversions).toHaveLength(1);
    });

    it('an empty response, then an answer', async () => {
      const { turn } = await converse([
        route,
        convertCall,
        { text: '' },
        finish({ message: '100 USD is 92 EUR.' }),
      ]);
      expect(turn.reply).toBe('100 USD is 92 EUR.');
    });

    it('a refusal in the skill: the refusal is the reply, not a crash or a loop', async () => {
      const { turn } = await converse([route, { refusal: 'I can’t help with currency trading.' }]);
      expect(turn.status).toBe('completed');
      expect(turn.reply).toContain('I can’t help with currency trading.');
    });

    it('a refusal at routing: a clear answer that nothing fits, no crash', async () => {
      const { turn } = await converse([
        { refusal: 'I can’t help with that.' },
        { refusal: 'I can’t help with that.' },
      ]);
      expect(turn.status).toBe('completed');
      expect(turn.reply).toContain('Convert an amount between currencies');
    });

    it('a response cut off at the length limit, retried with room to finish', async () => {
      const { turn } = await converse([
        route,
        convertCall,
        { text: '100 USD is', finishReason: 'length' },
        finish({ message: '100 USD is 92 EUR.' }),
      ]);
      expect(turn.reply).toBe('100 USD is 92 EUR.');
    });
  },
);
