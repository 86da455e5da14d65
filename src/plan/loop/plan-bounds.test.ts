/**
 * One test per bound of a plan (`createAgent({ plan })`) and per plan setting of `execution`
 * (DESIGN.md invariant 9): the same plan, once with the defaults and once with the setting given,
 * observably differs. The cases are `Record`s over the table's rows, so a setting added there without a
 * test here does not compile.
 */
import { describe, expect, it } from 'vitest';
import { call, finish } from '../../agent/fixtures/plan-domain.js';
import { type AgentOptions, createAgent } from '../../agent/index.js';
import type { DefaultBounds, Observation } from '../../spec/index.js';
import { createMemoryStore } from '../../store/index.js';
import { createScriptedModel, type ScriptStep } from '../../test/index.js';

const twoSteps = { title: 'Two steps', items: [{ description: 'Step A' }, { description: 'Step B' }] };
const alternatives = {
  candidates: [
    { title: 'Other', items: [{ description: 'Step C' }] },
    { title: 'Third', items: [{ description: 'Step D' }] },
  ],
};

function setup(plan: object, options: Partial<AgentOptions> = {}, steps: ScriptStep[] = []) {
  const model = createScriptedModel({
    steps: [
      ...steps,
      { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} }, repeat: true },
      { match: { phase: 'plan' }, json: twoSteps, repeat: true },
      { match: { phase: 'plan-alternatives' }, json: alternatives, repeat: true },
      {
        match: { phase: 'plan-score' },
        json: { scores: [{ candidate: 0, score: 9, reason: 'fine' }] },
        repeat: true,
      },
      { match: { phase: 'replan' }, json: { decision: 'continue' }, repeat: true },
      { match: { phase: 'plan-review' }, json: { decision: 'finish' }, repeat: true },
      { match: { phase: 'synthesize' }, json: { content: 'Done.' }, repeat: true },
      { match: { phase: 'skill' }, ...finish({ text: 'ok' }), repeat: true },
    ],
  });
  const agent = createAgent({
    model,
    flows: [],
    store: createMemoryStore(),
    plan: { treeSearch: 'off', ...plan },
    ...options,
  });
  const seen: Observation[] = [];
  agent.subscribe((o) => seen.push(o));
  const run = async () => {
    const turn = await agent.send({ threadId: 't', text: 'do it' });
    return { turn, seen, calls: model.calls, phases: model.calls.map((c) => c.phase) };
  };
  return { run };
}

type Case = (given: boolean) => Promise<unknown>;

const planCases: Record<keyof DefaultBounds['plan'], { case: Case; defaults: unknown; set: unknown }> = {
  maxItems: {
    case: async (given) => {
      const { phases } = await setup(given ? { maxItems: 1 } : {}).run();
      return phases.filter((p) => p === 'skill').length;
    },
    defaults: 2,
    set: 0,
  },
  maxRounds: {
    case: async (given) => {
      const more: ScriptStep = {
        match: { phase: 'plan-review' },
        json: { decision: 'continue', items: [{ description: 'One more step' }] },
        repeat: true,
      };
      const { phases } = await setup(given ? { maxRounds: 1 } : {}, {}, [more]).run();
      return phases.filter((p) => p === 'skill').length;
    },
    // The two first items, then one more per round the review adds.
    defaults: 5,
    set: 3,
  },
  latsMinItems: {
    case: async (given) => {
      const { phases } = await setup({ treeSearch: 'auto', ...(given ? { latsMinItems: 2 } : {}) }).run();
      return phases.includes('plan-alternatives');
    },
    defaults: false,
    set: true,
  },
  latsCandidates: {
    case: async (given) => {
      const { seen } = await setup({
        treeSearch: 'auto',
        latsMinItems: 2,
        ...(given ? { latsCandidates: 2 } : {}),
      }).run();
      const plan = seen.find((o) => o.type === 'plan');
      return (plan?.data.search as { candidates: unknown[] } | undefined)?.candidates.length;
    },
    defaults: 3,
    set: 2,
  },
};

const a2a = { agents: [{ id: 'research', url: 'http://127.0.0.1:9', description: 'Finds facts.' }] };

const executionCases: Record<
  keyof DefaultBounds['execution'],
  { case: Case; defaults: unknown; set: unknown }
> = {
  maxStepOutputChars: {
    case: async (given) => {
      const long: ScriptStep = {
        match: { phase: 'skill' },
        ...finish({ text: 'y'.repeat(500) }),
        repeat: true,
      };
      const options = given ? { execution: { maxStepOutputChars: 100 } } : {};
      const { calls } = await setup({}, options, [long]).run();
      const synthesis = calls.find((c) => c.phase === 'synthesize');
      return JSON.stringify(synthesis?.prompt).includes('y'.repeat(500));
    },
    defaults: true,
    set: false,
  },
  delegation: {
    case: async (given) => {
      const options = { a2a, ...(given ? { execution: { delegation: true } } : {}) };
      const { calls } = await setup({}, options, [
        { match: { phase: 'skill' }, ...call('no_tool', {}), repeat: false },
      ]).run();
      return calls.find((c) => c.phase === 'skill')?.toolNames.includes('delegate_to_agent');
    },
    defaults: false,
    set: true,
  },
};

describe('every bound of a plan, and every plan setting of execution, changes what a plan does', () => {
  it.each(Object.entries({ ...planCases, ...executionCases }))(
    '%s',
    async (_, { case: run, defaults, set }) => {
      expect(defaults).not.toEqual(set);
      expect(await run(false)).toEqual(defaults);
      expect(await run(true)).toEqual(set);
    },
  );
});
