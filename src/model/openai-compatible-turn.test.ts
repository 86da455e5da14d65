import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import { resolveModelFromEnv } from './resolve-model-from-env.js';

const convertFlow = defineFlow({
  name: 'convert_currency',
  intent: 'read',
  description: 'Convert an amount between currencies.',
  slots: [
    { name: 'amount', type: 'number', priority: 'required', description: 'Amount' },
    {
      name: 'to',
      type: 'category',
      options: ['EUR', 'USD', 'GBP'],
      priority: 'required',
      description: 'Target currency',
    },
  ],
  tools: ['convert'],
  skill: 'Convert {{amount}} to {{to}} with the convert tool.',
});

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each([false, true])('one full turn through @ai-sdk/openai-compatible (stream: %s)', (stream) => {
  it('routes, calls a tool with tool_calls, and finishes', async () => {
    server = await startOpenAICompatibleServer({
      steps: [
        { json: { flow: 'convert_currency', slots: { amount: 100, to: 'EUR' } } },
        { toolCalls: [{ toolName: 'convert', input: { amount: 100, to: 'EUR' } }] },
        {
          toolCalls: [
            { toolName: 'finish_skill', input: { outcome: 'success', data: { text: '100 USD is 92 EUR.' } } },
          ],
        },
      ],
    });
    const resolved = resolveModelFromEnv({ FLOWSTACK_MODEL: `openai-compatible:${server.url}#test-model` });
    if (!resolved) throw new Error('no model');
    const conversions: unknown[] = [];
    const convert = defineTool({
      name: 'convert',
      description: 'Convert USD to another currency.',
      input: z.object({ amount: z.number(), to: z.enum(['EUR', 'USD', 'GBP']) }),
      idempotent: true,
      execute: (input) => {
        conversions.push(input);
        return { amount: input.amount * 0.92, currency: input.to };
      },
    });
    const agent = createAgent({
      model: resolved.model,
      flows: [convertFlow],
      tools: [convert],
      store: createMemoryStore(),
      stream,
    });
    const turn = await agent.send({ threadId: 'http', text: 'Convert 100 USD to EUR' });

    expect(turn.status).toBe('completed');
    expect(turn.reply).toBe('100 USD is 92 EUR.');
    expect(conversions).toEqual([{ amount: 100, to: 'EUR' }]);
    expect(server.requests).toHaveLength(3);
    expect(server.requests.every((r) => (r.stream === true) === stream)).toBe(true);
    // The tool result went back to the server in the OpenAI format, paired with its call.
    const toolMessage = (server.requests[2]?.messages ?? []).find((m) => m.role === 'tool');
    expect(toolMessage).toMatchObject({ tool_call_id: 'call_1' });
    expect(JSON.parse(String(toolMessage?.content))).toEqual({ amount: 92, currency: 'EUR' });
    expect(server.remaining()).toBe(0);
  });
});
