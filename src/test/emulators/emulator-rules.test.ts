/**
 * The emulators refuse what their providers refuse, in the provider's error shape; and every schema of
 * flowstack's structured calls passes the rules they enforce.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTripDomain } from '../../agent/fixtures/plan-domain.js';
import { createTripPlanModel } from '../../agent/fixtures/trip-plan-model.js';
import { createAgent } from '../../agent/index.js';
import { defineFlow } from '../../flow/index.js';
import { readStrictAnswer, slotPairsSchema, toStrictJsonSchema } from '../../model/index.js';
import { planProposalSchema } from '../../plan/propose-plan.js';
import { replanDecisionSchema } from '../../plan/replan-decision.js';
import { createMemoryStore } from '../../store/index.js';
import { createScriptedModel, type ScriptedModel } from '../index.js';
import {
  findAnthropicSchemaProblem,
  findOpenAIStrictProblem,
  type ProviderEmulator,
  startProviderEmulator,
} from './index.js';

let emulator: ProviderEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function post(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${emulator?.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** The routing schema before ADR 0058: an open `slots` object and an optional key. */
const oldRouteSchema = {
  type: 'object',
  properties: { flow: { type: 'string', enum: ['book_flight', 'none'] }, slots: { type: 'object' } },
  required: ['flow'],
};

describe('OpenAI chat completions emulator', () => {
  it('refuses a strict response format that breaks strict mode, in OpenAI’s error shape', async () => {
    emulator = await startProviderEmulator('openai-chat', [{ text: 'unused' }]);
    const answer = await post('/chat/completions', {
      model: 'gpt-5-mini',
      messages: [{ role: 'user', content: 'I want to fly to Lisbon' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'route', strict: true, schema: oldRouteSchema },
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message: expect.stringContaining("Invalid schema for response_format 'route'"),
      },
    });
  });

  it('refuses a tool message that answers no call, and a call left unanswered', async () => {
    emulator = await startProviderEmulator('openai-chat', []);
    const orphan = await post('/chat/completions', {
      model: 'gpt-5-mini',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'tool', tool_call_id: 'call_9', content: '{}' },
      ],
    });
    expect(orphan.status).toBe(400);
    const unanswered = await post('/chat/completions', {
      model: 'gpt-5-mini',
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'user', content: 'And?' },
      ],
    });
    expect(unanswered.status).toBe(400);
    expect(JSON.stringify(unanswered.body)).toContain('call_1');
  });
});

describe('OpenAI Responses emulator', () => {
  it('refuses a function_call_output with no function_call before it', async () => {
    emulator = await startProviderEmulator('openai-responses', []);
    const answer = await post('/responses', {
      model: 'gpt-5-mini',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
        { type: 'function_call_output', call_id: 'call_7', output: '{}' },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { message: expect.stringContaining('call_7') } });
  });
});

describe('Anthropic messages emulator', () => {
  it('refuses a tool_use without its tool_result, in Anthropic’s error shape', async () => {
    emulator = await startProviderEmulator('anthropic', []);
    const answer = await post('/messages', {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'text', text: 'and?' }] },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('toolu_1') },
    });
  });

  it('refuses tool results placed after text in their message', async () => {
    emulator = await startProviderEmulator('anthropic', []);
    const answer = await post('/messages', {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'here:' },
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '{}' },
          ],
        },
      ],
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('must come first');
  });

  it('refuses a conversation that starts with the assistant, and a missing max_tokens', async () => {
    emulator = await startProviderEmulator('anthropic', []);
    const first = await post('/messages', {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'assistant', content: 'Hello' }],
    });
    expect(first.status).toBe(400);
    const noLimit = await post('/messages', {
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(noLimit.status).toBe(400);
  });

  it('constrains structured output to the schema: an open object comes out empty', async () => {
    emulator = await startProviderEmulator('anthropic', [
      { json: { flow: 'book_flight', slots: { destination: 'Lisbon' } } },
    ]);
    const closed = {
      ...oldRouteSchema,
      additionalProperties: false,
      properties: { ...oldRouteSchema.properties, slots: { type: 'object', additionalProperties: false } },
    };
    const answer = await post('/messages', {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'I want to fly to Lisbon' }],
      output_config: { format: { type: 'json_schema', schema: closed } },
    });
    const text = (answer.body as { content: { text: string }[] }).content[0]?.text ?? '';
    expect(JSON.parse(text)).toEqual({ flow: 'book_flight', slots: {} });
  });
});

describe('the strict schemas of flowstack’s structured calls', () => {
  const schemas = {
    plan: z.toJSONSchema(planProposalSchema, { target: 'draft-7' }) as Record<string, unknown>,
    replan: z.toJSONSchema(replanDecisionSchema, { target: 'draft-7' }) as Record<string, unknown>,
  };

  it.each(Object.entries(schemas))(
    '%s passes OpenAI strict mode and Claude’s rules once made strict',
    (_, original) => {
      expect(findOpenAIStrictProblem(original)).toBeDefined();
      const strict = toStrictJsonSchema(original);
      expect(findOpenAIStrictProblem(strict)).toBeUndefined();
      expect(findAnthropicSchemaProblem(strict)).toBeUndefined();
    },
  );

  it('reads a strict answer back: nulls of optional keys dropped, slot pairs made a map again', () => {
    const answer = {
      title: 'Weekend in Lisbon',
      strategies: null,
      items: [
        {
          id: 'flights',
          description: 'Find flights',
          flow: 'search_flights',
          slots: [{ name: 'destination', value: 'Lisbon' }],
          dependsOn: null,
          stepType: null,
          requiredTools: null,
          expectedOutcome: null,
        },
      ],
    };
    const read = readStrictAnswer(answer, schemas.plan);
    expect(planProposalSchema.parse(read)).toEqual({
      title: 'Weekend in Lisbon',
      items: [
        {
          id: 'flights',
          description: 'Find flights',
          flow: 'search_flights',
          slots: { destination: 'Lisbon' },
        },
      ],
    });
  });

  it('slot pairs are valid for both providers', () => {
    const route = {
      type: 'object',
      properties: { flow: { type: 'string', enum: ['a'] }, slots: slotPairsSchema(['city']) },
      required: ['flow', 'slots'],
      additionalProperties: false,
    };
    expect(findOpenAIStrictProblem(route)).toBeUndefined();
    expect(findAnthropicSchemaProblem(route)).toBeUndefined();
  });
});

/** The response format schemas a scripted model was sent, by phase. */
function sentSchemas(model: ScriptedModel): [string, unknown][] {
  return model.calls.flatMap((call) => {
    const format = call.options.responseFormat;
    return format?.type === 'json' && format.schema
      ? [[call.phase ?? '?', format.schema] as [string, unknown]]
      : [];
  });
}

describe('every response format flowstack sends', () => {
  it('passes OpenAI strict mode and Claude’s rules in a plan turn (route, plan, replan, review, synthesis)', async () => {
    const domain = createTripDomain();
    const model = createTripPlanModel();
    const agent = createAgent({
      model,
      flows: domain.flows,
      tools: domain.tools,
      store: createMemoryStore(),
      plan: { treeSearch: 'off' },
    });
    await agent.send({ threadId: 't1', text: 'Plan a weekend in Lisbon' });
    const schemas = sentSchemas(model);
    expect(new Set(schemas.map(([phase]) => phase))).toEqual(
      new Set(['predict', 'plan', 'replan', 'plan-review', 'synthesize']),
    );
    for (const [phase, schema] of schemas) {
      expect({ phase, problem: findOpenAIStrictProblem(schema) }).toEqual({ phase, problem: undefined });
      expect({ phase, problem: findAnthropicSchemaProblem(schema) }).toEqual({ phase, problem: undefined });
    }
  });

  it('passes both rule sets for slot filling and the reflection verdict', async () => {
    const model = createScriptedModel({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'summarize', slots: [] } },
        { match: { phase: 'fill-slots' }, json: { slots: [{ name: 'topic', value: 'Lisbon' }] } },
        { match: { phase: 'skill' }, text: 'Lisbon is lovely in spring.' },
        { match: { phase: 'skill-evaluate' }, json: { pass: true, issues: [] } },
      ],
    });
    const agent = createAgent({
      model,
      flows: [
        defineFlow({
          name: 'summarize',
          intent: 'converse',
          description: 'Write a short note on a topic.',
          slots: [
            { name: 'topic', type: 'text', priority: 'required', description: 'Topic', question: 'On what?' },
          ],
          complexity: 'complex',
          successCriteria: 'Names the topic.',
        }),
      ],
      store: createMemoryStore(),
    });
    // Slot filling reads earlier turns: a greeting (answered without the model) gives it one.
    await agent.send({ threadId: 't1', text: 'Hello' });
    const turn = await agent.send({ threadId: 't1', text: 'A note on the city I told you about, please' });
    expect(turn.reply).toBe('Lisbon is lovely in spring.');
    const schemas = sentSchemas(model);
    expect(schemas.map(([phase]) => phase)).toEqual(['predict', 'fill-slots', 'skill-evaluate']);
    for (const [phase, schema] of schemas) {
      expect({ phase, problem: findOpenAIStrictProblem(schema) }).toEqual({ phase, problem: undefined });
      expect({ phase, problem: findAnthropicSchemaProblem(schema) }).toEqual({ phase, problem: undefined });
    }
  });
});
