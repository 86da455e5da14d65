/**
 * AI SDK tools in a flowstack agent: adapted by `toolsFromAiSdk` they run (the AI SDK's schema decides
 * what they receive, settings declare their effects); given to `createAgent` as they are, they are
 * refused at once with the adapter to use, not on the first turn.
 */
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { ConfigurationError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import type { ToolDefinition } from './tool-definition.js';
import { toolsFromAiSdk } from './tools-from-ai-sdk.js';

const seen: Array<{ input: unknown; toolCallId: string; aborted: boolean }> = [];
const getWeather = tool({
  description: 'Weather in a city.',
  inputSchema: z.object({ city: z.string().transform((city) => city.toUpperCase()) }),
  execute: async ({ city }, { toolCallId, abortSignal }) => {
    seen.push({ input: { city }, toolCallId, aborted: abortSignal?.aborted ?? true });
    return { city, celsius: 21 };
  },
});

const weatherFlow = defineFlow({
  name: 'weather',
  intent: 'read',
  description: 'Tell the weather.',
  slots: [],
  tools: ['get_weather'],
  skill: 'Look up the weather.',
});

describe('AI SDK tools', () => {
  it('adapted with toolsFromAiSdk, run in a turn with their schema and the declared settings', async () => {
    const tools = toolsFromAiSdk({ get_weather: getWeather }, { get_weather: { idempotent: true } });
    expect(tools.map((t) => [t.name, t.description, t.idempotent, t.communicatesExternally])).toEqual([
      ['get_weather', 'Weather in a city.', true, false],
    ]);
    const model = createScriptedModel({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'weather', slots: {} } },
        { match: { phase: 'skill' }, toolCalls: [{ toolName: 'get_weather', input: { city: 'Oslo' } }] },
        {
          match: { phase: 'skill' },
          toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'done' } } }],
        },
      ],
    });
    const agent = createAgent({ model, flows: [weatherFlow], tools, store: createMemoryStore() });
    const turn = await agent.send({ threadId: 't', text: 'weather?' });
    await agent.close();
    expect(turn.reply).toBe('done');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.input).toEqual({ city: 'OSLO' });
    expect(seen[0]?.toolCallId).toEqual(expect.any(String));
    expect(seen[0]?.aborted).toBe(false);
  });

  it('settings for a tool not in the set, or a tool without execute, are refused', () => {
    expect(() => toolsFromAiSdk({ get_weather: getWeather }, { get_wether: { idempotent: true } })).toThrow(
      "no tool named 'get_wether'",
    );
    const clientSide = tool({ description: 'Asks the browser.', inputSchema: z.object({}) });
    expect(() => toolsFromAiSdk({ ask: clientSide })).toThrow(/'ask' has no execute/);
  });

  it('given to createAgent as it is, is refused with the adapter to use', () => {
    const make = () =>
      createAgent({
        model: createScriptedModel({ steps: [] }),
        flows: [weatherFlow],
        tools: [getWeather as unknown as ToolDefinition],
        store: createMemoryStore(),
      });
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(
      /tools\[0\] is an AI SDK tool\(\): make flowstack tools of a tool set with toolsFromAiSdk/,
    );
  });
});
