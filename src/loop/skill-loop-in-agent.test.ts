/**
 * The skill loop inside a whole turn: what the policy passes it (parent flow id, complexity, the
 * reflection pass) and what the turn makes of its outcomes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import type { StateStore } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createCurrencyTools } from './fixtures/currency-tools.js';

const stores: StateStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

function setup(steps: ScriptStep[], flow: Parameters<typeof defineFlow>[0]) {
  const store = createMemoryStore();
  stores.push(store);
  const model = createScriptedModel({ steps });
  const { tools, ran } = createCurrencyTools({
    failures: [{ category: 'auth_error', message: 'key revoked' }],
  });
  const agent = createAgent({
    model,
    flows: [defineFlow(flow)],
    tools,
    store,
    ids: createSequentialIdGenerator(),
  });
  return { agent, model, ran };
}

const predict: ScriptStep = { match: { phase: 'predict' }, json: { flow: 'convert', slots: {} } };

describe('the skill loop in a turn', () => {
  it('runs the reflection pass for a complex flow with success criteria', async () => {
    const { agent, model } = setup(
      [
        predict,
        {
          match: { phase: 'skill' },
          reasoning: 'Read the table.',
          toolCalls: [{ toolName: 'lookup_rate_table', input: { currency: 'EUR' } }],
        },
        {
          match: { phase: 'skill' },
          toolCalls: [
            { toolName: 'finish_skill', input: { outcome: 'success', data: { text: '1,152 NOK' } } },
          ],
        },
        { match: { phase: 'skill-evaluate' }, json: { pass: true } },
      ],
      {
        name: 'convert',
        intent: 'read',
        description: 'Convert an amount.',
        tools: ['lookup_rate_table'],
        complexity: 'complex',
        successCriteria: 'Names the amount in NOK.',
      },
    );
    const turn = await agent.send({ threadId: 't1', text: '100 EUR in NOK?' });
    expect(turn.status).toBe('completed');
    expect(turn.reply).toContain('1,152 NOK');
    expect(model.calls.map((c) => c.phase)).toEqual(['predict', 'skill', 'skill', 'skill-evaluate']);
    const flowId = turn.observations.find((o) => o.type === 'flow-push')?.parentId;
    expect(flowId).toMatch(/^flow_/);
    const thoughts = turn.observations.find((o) => o.type === 'thoughts');
    expect(thoughts).toMatchObject({ data: { text: 'Read the table.' } });
    expect(thoughts?.parentId).toBe(flowId);
  });

  it('turns an escalation into a suspended turn naming the call', async () => {
    const { agent, ran } = setup(
      [
        predict,
        {
          match: { phase: 'skill' },
          toolCalls: [{ toolName: 'get_rate', input: { from: 'EUR', to: 'NOK' } }],
        },
      ],
      { name: 'convert', intent: 'read', description: 'Convert an amount.', tools: ['get_rate'] },
    );
    const turn = await agent.send({ threadId: 't2', text: '100 EUR in NOK?' });
    expect(ran.get_rate).toHaveLength(1);
    expect(turn.status).toBe('suspended');
    expect(turn.reply).toContain('Waiting for you: The call to get_rate needs you');
    expect(turn.observations.find((o) => o.type === 'suspended')).toMatchObject({
      data: { kind: 'escalate', toolName: 'get_rate' },
    });
  });
});
