/**
 * Text tool-calling (`createAgent({ toolCalling: 'text' })`) through an OpenAI-compatible server whose
 * model has no native tool calling: the server refuses any request that sends tools, so the tools reach
 * the model only as the prompt's description, and the calls come back as `<skill>` blocks in its text.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../../agent/index.js';
import { defineFlow } from '../../flow/index.js';
import { createMemoryStore } from '../../store/index.js';
import { defineTool } from '../../tool/index.js';
import {
  type EmulatedCall,
  type EmulatorReply,
  type ProviderEmulator,
  startProviderEmulator,
} from './index.js';

let emulator: ProviderEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** The text of the request's last message, which the text-only model answers. */
function lastMessageText(call: EmulatedCall): string {
  const messages = call.body.messages as { role: string; content: unknown }[];
  const content = messages.at(-1)?.content;
  if (typeof content === 'string') return content;
  return (content as { text?: string }[]).map((p) => p.text ?? '').join('\n');
}

function createModel(url: string) {
  return createOpenAICompatible({
    name: 'ollama',
    baseURL: url,
    supportsStructuredOutputs: true,
    includeUsage: true,
  })('gemma3');
}

const quoteFlow = defineFlow({
  name: 'crypto_prices',
  intent: 'read',
  description: 'Look up the prices of crypto currencies.',
  slots: [],
  tools: ['price'],
});

function createPriceTool(looked: string[]) {
  return defineTool({
    name: 'price',
    description: 'The price of one coin in USD.',
    input: z.object({ coin: z.enum(['BTC', 'ETH']) }),
    idempotent: true,
    execute: ({ coin }) => {
      looked.push(coin);
      return { coin, usd: coin === 'BTC' ? 90000 : 3000 };
    },
  });
}

describe.each([false, true])('text tool-calling through a model without tools (stream: %s)', (stream) => {
  async function start(answer: (call: EmulatedCall, last: string) => EmulatorReply) {
    emulator = await startProviderEmulator(
      'openai-compatible',
      (call) =>
        call.schema ? { json: { flow: 'crypto_prices', slots: [] } } : answer(call, lastMessageText(call)),
      { tools: false },
    );
    const looked: string[] = [];
    const agent = createAgent({
      model: createModel(emulator.url),
      flows: [quoteFlow],
      tools: [createPriceTool(looked)],
      store: createMemoryStore(),
      stream,
      toolCalling: 'text',
    });
    return { agent, looked, emulator };
  }

  it('runs a call written in the text, then finishes with finish_skill written in the text', async () => {
    const { agent, looked, emulator } = await start((_call, last) =>
      last.startsWith('Result of price')
        ? {
            text: 'Got it. <skill>finish_skill(outcome="success", message="Bitcoin is at 90000 USD.")</skill>',
          }
        : { text: 'Let me look. <skill>price(coin="BTC")</skill>' },
    );

    const turn = await agent.send({ threadId: 't1', text: 'What is bitcoin worth?' });

    expect(emulator.rejections).toEqual([]);
    expect(turn.status).toBe('completed');
    expect(turn.reply).toBe('Bitcoin is at 90000 USD.');
    expect(looked).toEqual(['BTC']);
    // The skill's requests carry no tools; their system prompt lists them with the call syntax.
    const skillCalls = emulator.requests.filter((r) => r.response_format === undefined);
    expect(skillCalls.length).toBe(2);
    for (const request of skillCalls) {
      expect(request.tools).toBeUndefined();
      const system = (request.messages as { role: string; content: string }[])[0];
      expect(system?.role).toBe('system');
      expect(system?.content).toContain('<skill>tool_name(');
      expect(system?.content).toContain('- price: The price of one coin in USD.');
      expect(system?.content).toContain('- finish_skill:');
    }
  });

  it('runs the calls of a <parallel> block and answers in plain text', async () => {
    const { agent, looked, emulator } = await start((_call, last) =>
      last.startsWith('Result of price')
        ? { text: 'Bitcoin is at 90000 USD and Ether at 3000 USD.' }
        : {
            text: 'Checking both.<parallel><skill>price(coin="BTC")</skill><skill>price(coin="ETH")</skill></parallel>',
          },
    );

    const turn = await agent.send({ threadId: 't1', text: 'Prices of BTC and ETH?' });

    expect(emulator.rejections).toEqual([]);
    expect(turn.reply).toBe('Bitcoin is at 90000 USD and Ether at 3000 USD.');
    expect([...looked].sort()).toEqual(['BTC', 'ETH']);
    // Both results come back to the model in one message.
    const after = emulator.requests.at(-1)?.messages as { role: string; content: unknown }[];
    const results = JSON.stringify(after.at(-1)?.content);
    expect(results).toContain('Result of price');
    expect(results).toContain('90000');
    expect(results).toContain('3000');
  });

  it('streams the prose live, never the calls', async () => {
    const { agent } = await start((_call, last) =>
      last.startsWith('Result of price')
        ? { text: 'Bitcoin is at 90000 USD.' }
        : { text: 'Let me look that up. <skill>price(coin="BTC")</skill>' },
    );

    const deltas: string[] = [];
    let reply: string | undefined;
    for await (const part of agent.stream({ threadId: 't1', text: 'What is bitcoin worth?' })) {
      if (part.type === 'text-delta') deltas.push(part.delta);
      if (part.type === 'finish') reply = part.result.reply;
    }

    const shown = deltas.join('');
    expect(shown).not.toContain('<skill>');
    expect(shown).not.toContain('price(');
    expect(shown).toContain('Let me look that up.');
    expect(shown.endsWith('Bitcoin is at 90000 USD.')).toBe(true);
    expect(reply).toBe('Bitcoin is at 90000 USD.');
  });
});

describe('toolCalling option', () => {
  it('refuses a value it cannot take', async () => {
    expect(() =>
      createAgent({
        model: createModel('http://127.0.0.1:1/v1'),
        flows: [quoteFlow],
        store: createMemoryStore(),
        toolCalling: 'json' as 'text',
      }),
    ).toThrow(/toolCalling must be 'native' or 'text'/);
  });
});
