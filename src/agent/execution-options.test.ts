import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import { executeFlow } from '../policy/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import { createAgent } from './create-agent.js';
import type { AgentOptions } from './index.js';

const countUp = defineFlow({
  name: 'count_up',
  intent: 'read',
  description: 'Count up.',
  tools: ['count'],
  skill: 'Call count until you are told to stop.',
});
const countDeep = defineFlow({
  name: 'count_deep',
  intent: 'read',
  description: 'Count up carefully.',
  tools: ['count'],
  complexity: 'complex',
});
const countBehind = defineFlow({
  name: 'count_behind',
  intent: 'internal',
  description: 'Count up in the background.',
  tools: ['count'],
});
const kickOff = defineFlow({
  name: 'kick_off',
  intent: 'read',
  description: 'Start counting in the background.',
  tools: ['count'],
  hooks: { afterComplete: () => ({ schedule: [{ flow: 'count_behind', slots: {} }] }) },
});

const finish = (text: string): ScriptStep['toolCalls'] => [
  { toolName: 'finish_skill', input: { outcome: 'success', data: { text } } },
];

/** A skill that calls `count` with a new number each time and never finishes: its run ends at its bound. */
function endlessCounting(flow: string): ScriptStep[] {
  return Array.from({ length: 40 }, (_, index) => ({
    match: { phase: 'skill', flow },
    toolCalls: [{ toolName: 'count', input: { n: index + 1 } }],
  }));
}

function setup(options: Partial<AgentOptions> = {}) {
  const counted: number[] = [];
  const count = defineTool({
    name: 'count',
    description: 'Counts one up.',
    input: z.object({ n: z.number() }),
    idempotent: true,
    execute: ({ n }) => {
      counted.push(n);
      return { n };
    },
  });
  const model = createScriptedModel({
    steps: [
      { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} }, repeat: true },
      {
        match: { phase: 'plan' },
        json: { title: 'Count', items: [{ id: 'a', description: 'Count up', flow: 'count_up' }] },
        repeat: true,
      },
      { match: { phase: 'replan' }, json: { decision: 'continue' }, repeat: true },
      { match: { phase: 'plan-review' }, json: { decision: 'finish' }, repeat: true },
      { match: { phase: 'synthesize' }, json: { content: 'Counted.' }, repeat: true },
      { match: { phase: 'skill', flow: 'kick_off' }, toolCalls: finish('Started.'), repeat: true },
      ...endlessCounting('count_up'),
      ...endlessCounting('count_deep'),
      ...endlessCounting('count_behind'),
    ],
  });
  const agent = createAgent({
    model,
    flows: [countUp, countDeep, countBehind, kickOff],
    tools: [count],
    store: createMemoryStore(),
    rules: [
      { pattern: /^count$/, flow: 'count_up' },
      { pattern: /^deep$/, flow: 'count_deep' },
      { pattern: /^kick$/, flow: 'kick_off' },
    ],
    toolPipeline: { simulate: undefined },
    ...options,
  });
  /** Skill model calls of one flow made by what `work` does. */
  const skillCalls = async (flow: string, work: () => Promise<unknown>): Promise<number> => {
    const before = model.calls.filter((c) => c.phase === 'skill' && c.flow === flow).length;
    await work();
    return model.calls.filter((c) => c.phase === 'skill' && c.flow === flow).length - before;
  };
  return { agent, model, counted, skillCalls };
}

/** The problems of the `ConfigurationError` that `work` throws (or rejects with). */
async function problemsOf(work: () => unknown): Promise<string[]> {
  try {
    await work();
  } catch (error) {
    if (ConfigurationError.isInstance(error)) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigurationError');
}

describe('the iteration bound: one name (execution.maxIterations), set per agent, thread and call', () => {
  it('createAgent({ execution: { maxIterations: 1 } }) makes exactly one skill model call (the default five)', async () => {
    const bounded = setup({ execution: { maxIterations: 1 } });
    expect(
      await bounded.skillCalls('count_up', () => bounded.agent.send({ threadId: 't', text: 'count' })),
    ).toBe(1);
    expect(bounded.counted).toEqual([1]);
    const plain = setup();
    expect(await plain.skillCalls('count_up', () => plain.agent.send({ threadId: 't', text: 'count' }))).toBe(
      5,
    );
  });

  it('send({ execution: { maxIterations: 2 } }) bounds a user-facing flow, not only plan items', async () => {
    const { agent, skillCalls, counted } = setup();
    const turn = await agent.send({ threadId: 't', text: 'count', execution: { maxIterations: 2 } });
    expect(counted).toEqual([1, 2]);
    expect(turn.reply).toContain('2 model calls');
    expect(await skillCalls('count_up', () => agent.send({ threadId: 't', text: 'count' }))).toBe(5);
  });

  it('send({ threadExecution }) is saved with the thread; a call wins for itself only; the agent’s is under both', async () => {
    const { agent, skillCalls } = setup({ execution: { maxIterations: 1 } });
    const send = (threadId: string, extra: object = {}) =>
      skillCalls('count_up', () => agent.send({ threadId, text: 'count', ...extra }));
    expect(await send('t', { threadExecution: { maxIterations: 2 } })).toBe(2);
    expect(await send('t')).toBe(2);
    expect(await send('t', { execution: { maxIterations: 3 } })).toBe(3);
    expect(await send('t')).toBe(2);
    expect(await send('other')).toBe(1);
    expect((await agent.readThread('t')).snapshot.extensions.execution).toEqual({ maxIterations: 2 });
  });

  it('a bound for both columns applies to complex flows too; `complex` sets that column alone', async () => {
    const { agent, skillCalls } = setup({ execution: { maxIterations: 2 } });
    expect(await skillCalls('count_deep', () => agent.send({ threadId: 't', text: 'deep' }))).toBe(2);
    const columns = { maxIterations: 2, complex: { maxIterations: 3 } };
    expect(
      await skillCalls('count_deep', () => agent.send({ threadId: 't', text: 'deep', execution: columns })),
    ).toBe(3);
    expect(
      await skillCalls('count_up', () => agent.send({ threadId: 't', text: 'count', execution: columns })),
    ).toBe(2);
  });

  it('plan items and background flows run within the same settings as user-facing flows', async () => {
    const planning = setup({ plan: { treeSearch: 'off' }, execution: { maxIterations: 1 } });
    const item = (extra: object = {}) =>
      planning.skillCalls('count_up', () =>
        planning.agent.send({ threadId: `p${planning.model.calls.length}`, text: 'make a plan', ...extra }),
      );
    expect(await item()).toBe(1);
    expect(await item({ execution: { maxIterations: 2 } })).toBe(2);
    expect(await item({ threadExecution: { maxIterations: 3 } })).toBe(3);

    const { agent, skillCalls } = setup({ execution: { maxIterations: 1 } });
    // The background flow runs on after the reply; the thread's next message ("thanks", no model call)
    // waits for it.
    const kick = async (threadId: string, extra: object = {}) => {
      await agent.send({ threadId, text: 'kick', ...extra });
      await agent.send({ threadId, text: 'thanks' });
    };
    expect(await skillCalls('count_behind', () => kick('b', { execution: { maxIterations: 2 } }))).toBe(2);
    expect(await skillCalls('count_behind', () => kick('c'))).toBe(1);
  });

  it('the removed ways to set it are ConfigurationErrors that name the one way', async () => {
    expect(await problemsOf(() => setup({ skillLoop: { maxIterations: 1 } } as never))).toEqual([
      'skillLoop was merged into execution: createAgent({ execution: { maxTurns: 60 } }) sets the same bounds',
    ]);
    expect(
      await problemsOf(() =>
        setup({ limits: { maxSkillIterations: 1, maxSkillIterationsComplex: 1 } as never }),
      ),
    ).toEqual([
      'limits.maxSkillIterations was removed: set execution.maxIterations (or execution.simple.maxIterations)',
      'limits.maxSkillIterationsComplex was removed: set execution.complex.maxIterations',
    ]);
    // The building block a flow runs through, too (runSkillLoop's is in src/loop/skill-loop-bounds.test.ts).
    expect(await problemsOf(() => executeFlow({ maxIterations: 1 } as never))).toEqual([
      'maxIterations: set limits.maxIterations instead',
    ]);
  });
});

describe('execution settings: every skill loop bound, for every run of the agent', () => {
  it('asks whether to go on every N turns when the agent says so', async () => {
    const asking = setup({ execution: { confirmEveryTurns: 2 } });
    const paused = await asking.agent.send({ threadId: 't', text: 'count' });
    expect(paused.status).toBe('suspended');
    expect(asking.counted).toEqual([1, 2]);
    expect(paused.suspensions?.map((s) => s.kind)).toEqual(['continue']);
  });

  it('refuses unknown settings and values out of range, with every problem listed', async () => {
    expect(await problemsOf(() => setup({ execution: { maxTurns: -1, confirmEvery: 2 } as never }))).toEqual([
      'execution.confirmEvery is not an execution setting (a skill loop bound, maxStepOutputChars or delegation)',
      'execution.maxTurns must be a whole number ≥ 1 (got -1)',
    ]);
    const { agent, model } = setup();
    expect(
      await problemsOf(() =>
        agent.send({
          threadId: 't',
          text: 'count',
          execution: { complex: { maxIteration: 3 } } as never,
          threadExecution: { backoffMs: 1.5 },
        }),
      ),
    ).toEqual([
      'execution.complex.maxIteration is not a bound of the skill loop',
      'threadExecution.backoffMs must be a whole number ≥ 0 (got 1.5)',
    ]);
    expect(model.callCount).toBe(0);
    expect(await agent.store.loadThread('t')).toBeUndefined();
  });
});

describe('an option that is given but cannot take effect is a ConfigurationError', () => {
  it('plan settings when plans are off, delegation without A2A agents — before anything runs', async () => {
    const { agent, model } = setup();
    expect(
      await problemsOf(() =>
        agent.send({
          threadId: 't',
          text: 'count',
          execution: { maxStepOutputChars: 1_000 },
          threadExecution: { delegation: true },
        }),
      ),
    ).toEqual([
      'execution.maxStepOutputChars is read only by plans, and plans are off (createAgent({ plan }))',
      'threadExecution.delegation is read only by plans, and plans are off (createAgent({ plan }))',
    ]);
    expect(model.callCount).toBe(0);
    expect(await agent.store.loadThread('t')).toBeUndefined();
    expect(await problemsOf(() => setup({ plan: true, execution: { delegation: true } }))).toEqual([
      'execution.delegation needs A2A agents to delegate to (createAgent({ a2a: { agents } }))',
    ]);
  });

  it('an unknown name in any bag that holds bounds, or a bound that is not a number ≥ 0', async () => {
    const problems = await problemsOf(() =>
      setup({
        colour: 'red',
        limits: { maxStackDepht: 3, maxFlowsPerTurn: -1 },
        plan: { maxItem: 3, latsCandidates: 5 },
        toolPipeline: { maxConcurency: 2 },
        a2a: { agents: [], limits: { timeoutMs: 10 } },
      } as never),
    );
    expect(problems).toEqual([
      'colour is not an option flowstack knows',
      'limits.maxStackDepht is not an option flowstack knows',
      'limits.maxFlowsPerTurn must be a number ≥ 0 (got -1)',
      'plan.maxItem is not an option flowstack knows',
      'plan.latsCandidates must be 2 or 3 (got 5)',
      'a2a.limits has no effect without a2a.agents',
      'toolPipeline.maxConcurency is not an option flowstack knows',
    ]);
  });
});
