/**
 * OpenAI Agents SDK tools in a flowstack agent, made with the SDK's own `tool()`: adapted by
 * `toolsFromOpenAIAgents` they run in a turn (their JSON Schema checks the arguments first, `invoke`
 * gets the JSON text), take the declared effects (and with them approval), and fail as flowstack
 * failures; given to `createAgent` as they are, they are refused with the adapter to use.
 */
import { tool } from '@openai/agents-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { ConfigurationError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { executeToolBatch } from './execute-tool-batch.js';
import { call, createTestContext } from './fixtures/batch-context.js';
import type { ToolDefinition } from './tool-definition.js';
import { toolsFromOpenAIAgents } from './tools-from-openai-agents.js';

function weatherTool(seen: unknown[]) {
  return tool({
    name: 'get_weather',
    description: 'Weather in a city.',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      seen.push(city);
      return { city, celsius: 21 };
    },
  });
}

const sentEmails: string[] = [];
const sendEmail = tool({
  name: 'send_email',
  description: 'Send an email.',
  parameters: z.object({ to: z.string(), body: z.string() }),
  execute: async ({ to }) => {
    sentEmails.push(to);
    return `sent to ${to}`;
  },
});

function flowWith(name: string, tools: string[]) {
  return defineFlow({
    name,
    intent: 'read',
    description: `Use ${tools[0]}.`,
    slots: [],
    tools,
    skill: 'Do it.',
  });
}

function turnSteps(flow: string, toolName: string, input: unknown): ScriptStep[] {
  return [
    { match: { phase: 'predict' }, json: { flow, slots: {} } },
    { match: { phase: 'skill' }, toolCalls: [{ toolName, input }] },
    {
      match: { phase: 'skill' },
      toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'done' } } }],
    },
  ];
}

describe('OpenAI Agents SDK tools', () => {
  it('adapted with toolsFromOpenAIAgents, run in a turn with the declared settings', async () => {
    const seen: unknown[] = [];
    const tools = toolsFromOpenAIAgents([weatherTool(seen)], { get_weather: { idempotent: true } });
    expect(tools.map((t) => [t.name, t.description, t.idempotent, t.requiresApproval])).toEqual([
      ['get_weather', 'Weather in a city.', true, false],
    ]);
    const model = createScriptedModel({ steps: turnSteps('weather', 'get_weather', { city: 'Oslo' }) });
    const agent = createAgent({
      model,
      flows: [flowWith('weather', ['get_weather'])],
      tools,
      store: createMemoryStore(),
    });
    const turn = await agent.send({ threadId: 't', text: 'weather?' });
    await agent.close();
    expect(turn.reply).toBe('done');
    expect(seen).toEqual(['Oslo']);
    // The model was offered the tool's own JSON Schema.
    const offered = model.calls.find((c) => c.toolNames.includes('get_weather'))?.options.tools?.[0];
    expect(offered).toMatchObject({ inputSchema: { properties: { city: { type: 'string' } } } });
  });

  it('without declarations gets the safe defaults; declared side-effecting, it waits for approval', async () => {
    const [plain] = toolsFromOpenAIAgents([sendEmail]);
    expect(plain).toMatchObject({
      idempotent: false,
      capability: 'safe',
      accessesPrivateData: false,
      communicatesExternally: false,
      requiresApproval: false,
    });
    const tools = toolsFromOpenAIAgents([sendEmail], {
      send_email: { accessesPrivateData: true, receivesUntrustedInput: true, communicatesExternally: true },
    });
    const agent = createAgent({
      model: createScriptedModel({
        steps: turnSteps('mail', 'send_email', { to: 'a@b.example', body: 'hi' }),
      }),
      flows: [flowWith('mail', ['send_email'])],
      tools,
      store: createMemoryStore(),
    });
    const turn = await agent.send({ threadId: 'm', text: 'mail them' });
    await agent.close();
    // All three trifecta tags: the person is asked to confirm before anything is sent.
    expect(turn.status).toBe('needs-input');
    expect(turn.pending?.kind).toBe('confirmation');
    expect(sentEmails).toEqual([]);
  });

  it('checks the arguments against the schema before the tool runs, and passes them as JSON text', async () => {
    const seen: unknown[] = [];
    const context = createTestContext(toolsFromOpenAIAgents([weatherTool(seen)]));
    const [bad, good] = await executeToolBatch(
      [call('get_weather', { city: 7 }, 'c1'), call('get_weather', { city: 'Rome' }, 'c2')],
      context,
    );
    expect(bad).toMatchObject({ status: 'error', error: { category: 'validation_error' } });
    expect(good).toMatchObject({ status: 'success', output: { city: 'Rome', celsius: 21 } });
    expect(seen).toEqual(['Rome']);
  });

  it('a tool that throws is a failure result, whether the SDK catches the error or not', async () => {
    const broken = (errorFunction?: null) =>
      tool({
        name: errorFunction === null ? 'raw_lookup' : 'lookup',
        description: 'Look up.',
        parameters: z.object({ key: z.string() }),
        ...(errorFunction === null ? { errorFunction } : {}),
        execute: async () => {
          throw new Error('upstream refused the key');
        },
      });
    const context = createTestContext(toolsFromOpenAIAgents([broken(), broken(null)]));
    const results = await executeToolBatch(
      [call('lookup', { key: 'k' }, 'c1'), call('raw_lookup', { key: 'k' }, 'c2')],
      context,
    );
    for (const result of results) {
      expect(result).toMatchObject({ status: 'error', error: { category: 'server_error' } });
      expect(result?.contextText).toContain('upstream refused the key');
    }
  });

  it("asks the tool's own needsApproval per call, and refuses a call it wants approved unless declared", async () => {
    const paid: number[] = [];
    const pay = tool({
      name: 'pay',
      description: 'Pay an amount.',
      parameters: z.object({ amount: z.number() }),
      needsApproval: async (_context, { amount }) => amount > 100,
      execute: async ({ amount }) => {
        paid.push(amount);
        return 'paid';
      },
    });
    const context = createTestContext(toolsFromOpenAIAgents([pay]));
    const [small, large] = await executeToolBatch(
      [call('pay', { amount: 20 }, 'p1'), call('pay', { amount: 5_000 }, 'p2')],
      context,
    );
    expect(small).toMatchObject({ status: 'success', output: 'paid' });
    expect(large).toMatchObject({ status: 'error', error: { category: 'auth_error' } });
    expect(large?.contextText).toContain('declare requiresApproval');
    expect(paid).toEqual([20]);
    // Declared, flowstack's own approval holds every call before it runs.
    const [held] = await executeToolBatch(
      [call('pay', { amount: 5_000 }, 'p3')],
      createTestContext(toolsFromOpenAIAgents([pay], { pay: { requiresApproval: true } })),
    );
    expect(held).toMatchObject({ status: 'suspended', kind: 'approval' });
    expect(paid).toEqual([20]);
  });

  it('refuses settings for a tool not given, a value that is not a function tool, and guardrails', () => {
    const seen: unknown[] = [];
    expect(() => toolsFromOpenAIAgents([weatherTool(seen)], { get_wether: { idempotent: true } })).toThrow(
      "settings were given for 'get_wether'",
    );
    const guarded = tool({
      name: 'guarded',
      description: 'Guarded.',
      parameters: z.object({}),
      inputGuardrails: [{ name: 'no_secrets', run: async () => ({ behavior: { type: 'allow' } }) }],
      execute: async () => 'ok',
    });
    expect(() => toolsFromOpenAIAgents([guarded])).toThrow(/'guarded'\) has input guardrails/);
    expect(() => toolsFromOpenAIAgents([{ name: 'x' } as never])).toThrow(ConfigurationError);
  });

  it('given to createAgent as it is, is refused with the adapter to use', () => {
    const make = () =>
      createAgent({
        model: createScriptedModel({ steps: [] }),
        flows: [flowWith('mail', ['send_email'])],
        tools: [sendEmail as unknown as ToolDefinition],
        store: createMemoryStore(),
      });
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(
      "tools[0] ('send_email') is an OpenAI Agents SDK tool: make flowstack tools of it with toolsFromOpenAIAgents",
    );
  });
});
