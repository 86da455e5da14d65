// The two dialogue defects of issue 32, through agent.send: a change of mind while an elective question
// is pending, and a push past the stack bound.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { defineTool, type ToolDefinition } from '../tool/index.js';
import { createSequentialIdGenerator, systemClock } from '../util/index.js';
import { createAgent } from './create-agent.js';
import { finish, lookupFlow, notesFlow, testRules, testTools } from './fixtures/test-domain.js';

const shoppingList = defineFlow({
  name: 'shopping_list',
  intent: 'prepare',
  description: 'Write a shopping list for a recipe or a list of ingredients.',
  slots: [
    {
      name: 'recipe',
      type: 'entity',
      priority: 'elective',
      group: 'what',
      description: 'Recipe',
      entities: ['ratatouille', 'pancakes'],
    },
    { name: 'ingredients', type: 'list', priority: 'elective', group: 'what', description: 'Ingredients' },
  ],
  tools: ['list_items'],
  skill: 'Write the shopping list.',
});

const nutritionFacts = defineFlow({
  name: 'nutrition_facts',
  intent: 'read',
  description: 'Tell the nutrition facts of a dish.',
  slots: [{ name: 'dish', type: 'text', priority: 'required', description: 'Dish', question: 'Which dish?' }],
  tools: ['list_items'],
  skill: 'Tell the nutrition facts of {{dish}}.',
});

const listItems = defineTool({
  name: 'list_items',
  description: 'List items.',
  input: z.object({ of: z.string() }),
  idempotent: true,
  execute: ({ of }) => ({ of, items: [] }),
}) as ToolDefinition;

function setup(steps: ScriptStep[], limits: { maxStackDepth?: number } = {}) {
  const model = createScriptedModel({ steps });
  const agent = createAgent({
    model,
    limits,
    flows: [shoppingList, nutritionFacts],
    tools: [listItems],
    rules: [{ pattern: /^shopping list$/i, flow: 'shopping_list' }],
    store: createMemoryStore(),
    ids: createSequentialIdGenerator(),
    clock: { now: () => 1_000, sleep: systemClock.sleep },
  });
  return { agent, model };
}

describe('a change of mind during an elective question', () => {
  it('a long question about something else is routed by the model, not taken as the ingredients', async () => {
    const { agent, model } = setup([
      { match: { phase: 'predict' }, json: { flow: 'nutrition_facts', slots: { dish: 'ratatouille' } } },
      {
        match: { phase: 'skill', flow: 'nutrition_facts' },
        toolCalls: finish({ outcome: 'success', data: { text: 'About 90 kcal a serving.' } }),
      },
    ]);
    const asked = await agent.send({ threadId: 't1', text: 'shopping list' });
    expect(asked.status).toBe('needs-input');
    expect(asked.pending).toMatchObject({ level: 'partial' });

    const turn = await agent.send({
      threadId: 't1',
      text: 'Hold on, what are the nutrition facts of ratatouille?',
    });
    expect(model.calls.map((c) => c.phase)).toContain('predict');
    expect(model.calls.some((c) => c.phase === 'skill' && c.flow === 'shopping_list')).toBe(false);
    expect(turn.reply).toContain('About 90 kcal a serving.');
    // The shopping list waits below and asks its question again.
    expect(turn.pending).toMatchObject({ level: 'partial' });
    const shopping = turn.stack.find((f) => f.name === 'shopping_list');
    expect(shopping?.slots.ingredients).toBeUndefined();
  });

  it('a short list still answers the elective question without a model call', async () => {
    const { agent, model } = setup([
      {
        match: { phase: 'skill', flow: 'shopping_list' },
        toolCalls: finish({ outcome: 'success', data: { text: 'Eggs, flour.' } }),
      },
    ]);
    await agent.send({ threadId: 't2', text: 'shopping list' });
    const turn = await agent.send({ threadId: 't2', text: 'eggs and flour' });
    expect(turn.reply).toBe('Eggs, flour.');
    expect(model.calls.map((c) => c.phase)).toEqual(['skill']);
  });
});

describe('a push past the stack bound', () => {
  it('is a typed error with an error observation, and the turn is failed, not an ordinary question', async () => {
    const { agent, model } = setup(
      [{ match: { phase: 'predict' }, json: { flow: 'nutrition_facts', slots: { dish: 'ratatouille' } } }],
      { maxStackDepth: 1 },
    );
    await agent.send({ threadId: 't3', text: 'shopping list' });
    const turn = await agent.send({
      threadId: 't3',
      text: 'Hold on, what are the nutrition facts of ratatouille?',
    });
    expect(model.calls.map((c) => c.phase)).toEqual(['predict']);
    expect(turn.status).toBe('failed');
    const error = turn.observations.find((o) => o.type === 'error');
    expect(error?.data).toMatchObject({
      phase: 'route',
      name: 'StackDepthError',
      code: 'stack_depth',
      maxDepth: 1,
      flow: 'nutrition_facts',
    });
    expect(turn.reply).toContain('limits.maxStackDepth');
    // The shopping list is still there, and its question still stands for the next message.
    expect(turn.stack.map((f) => f.name)).toEqual(['shopping_list']);
    expect(turn.pending).toMatchObject({ level: 'partial' });
  });
});

describe('a recovery push past the stack bound', () => {
  it('gathering context on a full stack is a StackDepthError observation, and recovery moves on', async () => {
    // The weather lookup is never sure, so recovery wants to push the Internal flow that gathers context.
    const agent = createAgent({
      model: createScriptedModel({
        steps: [
          {
            match: { phase: 'skill', flow: 'lookup' },
            toolCalls: finish({ outcome: 'uncertain', reason: 'The station did not answer.' }),
            repeat: true,
          },
          { match: { phase: 'contemplate' }, json: { flow: 'none' }, repeat: true },
        ],
      }),
      flows: [lookupFlow({ gatherContext: 'peek_notes' }), notesFlow],
      tools: testTools(),
      rules: testRules,
      store: createMemoryStore(),
      ids: createSequentialIdGenerator(),
      limits: { maxStackDepth: 1 },
    });
    const turn = await agent.send({ threadId: 'g1', text: 'weather in Oslo' });
    const error = turn.observations.find((o) => o.type === 'error' && o.data.code === 'stack_depth');
    expect(error?.data).toMatchObject({ phase: 'recovery', flow: 'peek_notes', maxDepth: 1 });
    expect(turn.stack.map((f) => f.name)).toEqual(['lookup']);
    expect(turn.pending).toMatchObject({ level: 'general' });
  });
});
