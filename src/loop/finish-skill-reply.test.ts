/**
 * The reply is written for the user (ADR 0059): `finish_skill`'s `message` (or its `summary`, or a plain
 * text answer) is what the user reads, structured data goes to the display frame, and the reply is never
 * the data printed as JSON.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import type { StateStore } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { finishSkillTool } from './finish-skill-tool.js';
import { createCurrencyTools } from './fixtures/currency-tools.js';

const stores: StateStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

const convertFlow = defineFlow({
  name: 'convert',
  intent: 'read',
  description: 'Convert an amount between currencies.',
  tools: ['get_rate'],
});

function runTurn(skillSteps: ScriptStep[]) {
  const store = createMemoryStore();
  stores.push(store);
  const model = createScriptedModel({
    steps: [
      { match: { phase: 'predict' }, json: { flow: 'convert', slots: [] } },
      ...skillSteps.map((s) => ({ ...s, match: { phase: 'skill' } })),
    ],
  });
  const agent = createAgent({
    model,
    flows: [convertFlow],
    tools: createCurrencyTools().tools,
    store,
    ids: createSequentialIdGenerator(),
  });
  return { turn: agent.send({ threadId: 't1', text: 'Convert 100 USD to EUR' }), model };
}

const finish = (input: Record<string, unknown>): ScriptStep => ({
  toolCalls: [{ toolName: 'finish_skill', input }],
});

describe('the reply of a finished skill', () => {
  it('is the summary, with the data in the frame, when the model puts its answer in summary', async () => {
    const { turn } = runTurn([
      finish({ outcome: 'success', data: { amount: 92, currency: 'EUR' }, summary: '100 USD is 92 EUR.' }),
    ]);
    const result = await turn;
    expect(result.reply).toBe('100 USD is 92 EUR.');
    expect(result.frames).toEqual([
      expect.objectContaining({ displayType: 'json', data: { amount: 92, currency: 'EUR' } }),
    ]);
  });

  it('is the message, the documented field for the user, over data and summary', async () => {
    const { turn } = runTurn([
      finish({
        outcome: 'success',
        message: 'That is 92 euros at today’s rate.',
        summary: 'converted',
        data: { amount: 92, currency: 'EUR' },
      }),
    ]);
    expect((await turn).reply).toBe('That is 92 euros at today’s rate.');
  });

  it('never prints structured data as JSON when the model gives no words', async () => {
    const { turn } = runTurn([finish({ outcome: 'success', data: { amount: 92, currency: 'EUR' } })]);
    const result = await turn;
    expect(result.reply).toBe('Here is the result.');
    expect(result.reply).not.toContain('{');
    expect(result.frames[0]?.data).toEqual({ amount: 92, currency: 'EUR' });
  });

  it('is the plain text of a model that answers without calling finish_skill', async () => {
    const { turn } = runTurn([{ text: '100 USD is about 92 EUR.' }]);
    const result = await turn;
    expect(result.status).toBe('completed');
    expect(result.reply).toBe('100 USD is about 92 EUR.');
  });

  it('is documented to the model: the finish_skill schema and the skill prompt name message', async () => {
    const { turn, model } = runTurn([finish({ outcome: 'success', message: 'Done: 92 EUR.' })]);
    await turn;
    const skillCall = model.calls.find((c) => c.phase === 'skill');
    const offered = skillCall?.options.tools?.find((t) => t.name === 'finish_skill');
    expect(offered).toEqual(finishSkillTool);
    const properties = (
      finishSkillTool.inputSchema as { properties: Record<string, { description?: string }> }
    ).properties;
    expect(properties.message?.description).toMatch(/reply the user reads/);
    const system = skillCall?.prompt.find((m) => m.role === 'system');
    expect(String(system?.content)).toMatch(/reply to the user in message/);
  });
});
