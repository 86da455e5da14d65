import { afterEach, describe, expect, it } from 'vitest';
import {
  startA2ATestAgent,
  type TestAgent,
  type TestAgentOptions,
} from '../../a2a/fixtures/start-a2a-test-agent.js';
import { call, createTripDomain, finish, stepAbout } from '../../agent/fixtures/plan-domain.js';
import { createAgent } from '../../agent/index.js';
import { ConfigurationError } from '../../errors/index.js';
import type { Observation, StateStore } from '../../spec/index.js';
import { createMemoryStore } from '../../store/index.js';
import { createScriptedModel, type ScriptStep } from '../../test/index.js';
import { type Clock, createSequentialIdGenerator } from '../../util/index.js';
import { readPlanState } from '../index.js';

const stores: StateStore[] = [];
const remotes: TestAgent[] = [];
afterEach(async () => {
  await Promise.all([...stores.splice(0).map((s) => s.close()), ...remotes.splice(0).map((r) => r.close())]);
});

/** Sleeps by yielding to the event loop and moving time on, so polling never waits on the wall clock. */
function yieldingClock(): Clock {
  let now = 1_000_000;
  return {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        if (ms >= 60_000)
          return signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        setImmediate(() => {
          now += ms;
          resolve();
        });
      }),
  };
}

async function setup(steps: ScriptStep[], remote: TestAgentOptions, delegation = true) {
  const research = await startA2ATestAgent(remote);
  remotes.push(research);
  const store = createMemoryStore();
  stores.push(store);
  const domain = createTripDomain();
  const model = createScriptedModel({ steps });
  const agent = createAgent({
    model,
    flows: domain.flows,
    tools: domain.tools,
    store,
    ids: createSequentialIdGenerator(),
    plan: { treeSearch: 'off' },
    clock: yieldingClock(),
    execution: { delegation },
    a2a: { agents: [{ id: 'research', url: research.url, description: 'Finds facts about places.' }] },
  });
  const seen: Observation[] = [];
  agent.subscribe((o) => seen.push(o));
  return { agent, model, research, seen };
}

const delegatedPlan = {
  title: 'Lisbon facts',
  items: [
    {
      id: 'facts',
      description: 'Ask the research agent about Lisbon museums',
      requiredTools: ['delegate_to_agent'],
    },
    {
      id: 'weather',
      description: 'Check the weather in Lisbon',
      flow: 'check_weather',
      slots: { city: 'Lisbon' },
    },
  ],
};

describe('A2A delegation inside a plan', () => {
  it('delegates an item to an A2A agent on a loopback port, and the plan completes with its answer', async () => {
    const { agent, model, research, seen } = await setup(
      [
        { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} } },
        { match: { phase: 'plan' }, json: delegatedPlan },
        {
          match: stepAbout('research agent'),
          ...call('delegate_to_agent', {
            agentId: 'research',
            input: 'Which museums in Lisbon open on Sunday?',
          }),
        },
        {
          match: stepAbout('research agent'),
          respond: (options) => {
            const result = JSON.stringify(options.prompt.at(-1));
            return finish({
              text: result.includes('MAAT') ? 'MAAT and Gulbenkian open on Sunday.' : 'no answer',
            });
          },
        },
        { match: { phase: 'replan' }, json: { decision: 'continue' } },
        { match: { phase: 'skill', flow: 'check_weather' }, ...finish({ summary: 'Sunny' }) },
        { match: { phase: 'plan-review' }, json: { decision: 'finish' } },
        {
          match: { phase: 'synthesize' },
          respond: (options) => ({
            json: {
              content: String(options.prompt[0]?.content).includes('MAAT open on Sundays')
                ? 'Sunny Sunday: MAAT and Gulbenkian.'
                : 'missing',
            },
          }),
        },
      ],
      {
        streaming: true,
        respond: ({ text }) => ({
          answer: text.includes('Sunday') ? 'MAAT open on Sundays; Gulbenkian too.' : '?',
        }),
      },
    );
    const turn = await agent.send({ threadId: 't1', text: 'What can I visit in Lisbon on Sunday?' });
    expect(turn.reply).toBe('Sunny Sunday: MAAT and Gulbenkian.');
    expect(model.remaining()).toBe(0);
    expect(research.received.map((r) => r.text)).toEqual(['Which museums in Lisbon open on Sunday?']);
    const plan = readPlanState((await agent.readThread('t1')).snapshot);
    expect(plan?.items.map((i) => i.status)).toEqual(['completed', 'completed']);
    const delegated = seen.find(
      (o) => o.type === 'tool-execution' && o.data.toolName === 'delegate_to_agent',
    );
    expect(delegated).toMatchObject({ parentId: plan?.items[0]?.id, data: { status: 'success' } });
    expect(model.calls.find((c) => c.phase === 'plan')?.toolNames).toEqual([]);
    expect(JSON.stringify(model.calls.find((c) => c.phase === 'plan')?.prompt)).toContain(
      'research: Finds facts about places.',
    );
  });

  it('turns a remote input-required into a local suspension; the user’s answer goes to the remote task once', async () => {
    const { agent, model, research, seen } = await setup(
      [
        { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} } },
        { match: { phase: 'plan' }, json: { title: 'Report', items: [delegatedPlan.items[0]] } },
        {
          match: stepAbout('research agent'),
          ...call('delegate_to_agent', { agentId: 'research', input: 'museum report' }, 'call-d1'),
        },
        {
          match: stepAbout('research agent'),
          respond: (options) =>
            finish({
              text: `the agent said: ${JSON.stringify(options.prompt.at(-1)).includes('report for 2025') ? 'report for 2025' : '??'}`,
            }),
        },
        { match: { phase: 'plan-review' }, json: { decision: 'finish' } },
        { match: { phase: 'synthesize' }, json: { content: 'Here is the 2025 museum report.' } },
      ],
      {
        streaming: false,
        respond: ({ turn, text }) =>
          turn === 1 ? { ask: 'For which year?' } : { answer: `report for ${text}` },
      },
    );
    const first = await agent.send({ threadId: 't1', text: 'Get me the museum report' });
    expect(first.status).toBe('suspended');
    expect(first.reply).toBe("Waiting for you: Agent 'research' asks: For which year?");
    let plan = readPlanState((await agent.readThread('t1')).snapshot);
    expect(plan?.items[0]?.status).toBe('waiting');
    expect(plan?.waiting).toMatchObject({
      kind: 'skill',
      run: {
        skill: 'tool',
        suspensions: [{ kind: 'feedback', toolName: 'delegate_to_agent', callId: 'call-d1', status: 'open' }],
      },
    });
    expect(seen.find((o) => o.type === 'suspended')?.parentId).toBe(plan?.items[0]?.id);

    const second = await agent.send({ threadId: 't1', text: '2025' });
    expect(second.status).toBe('completed');
    expect(second.reply).toBe('Here is the 2025 museum report.');
    expect(model.remaining()).toBe(0);
    expect(research.received.map((r) => r.text)).toEqual(['museum report', '2025']);
    expect(model.calls.filter((c) => c.phase === 'refine')).toHaveLength(0);
    plan = readPlanState((await agent.readThread('t1')).snapshot);
    expect(plan?.items[0]).toMatchObject({ status: 'completed', summary: 'the agent said: report for 2025' });
    expect(plan?.waiting).toBeUndefined();
  });

  it('offers delegation to items only when the execution settings allow it: call over agent', async () => {
    const weatherOnly = {
      title: 'x',
      items: [
        { description: 'Check the weather in Lisbon', flow: 'check_weather', slots: { city: 'Lisbon' } },
      ],
    };
    const { agent, model } = await setup(
      [
        { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} }, repeat: true },
        { match: { phase: 'plan' }, json: weatherOnly, repeat: true },
        { match: { phase: 'skill', flow: 'check_weather' }, ...finish({ summary: 'Sunny' }), repeat: true },
        { match: { phase: 'plan-review' }, json: { decision: 'finish' }, repeat: true },
        { match: { phase: 'synthesize' }, json: { content: 'Sunny.' }, repeat: true },
      ],
      { streaming: true, respond: () => ({ answer: 'x' }) },
      false,
    );
    await agent.send({ threadId: 't1', text: 'weather' });
    expect(model.calls.find((c) => c.phase === 'skill')?.toolNames).not.toContain('delegate_to_agent');
    expect(JSON.stringify(model.calls.find((c) => c.phase === 'plan')?.prompt)).not.toContain(
      'delegate_to_agent',
    );
    await agent.send({ threadId: 't2', text: 'weather', execution: { delegation: true } });
    expect(model.calls.filter((c) => c.phase === 'skill').at(-1)?.toolNames).toContain('delegate_to_agent');
    await agent.send({ threadId: 't3', text: 'weather', threadExecution: { delegation: true } });
    await agent.send({ threadId: 't3', text: 'weather again' });
    expect(model.calls.filter((c) => c.phase === 'skill').at(-1)?.toolNames).toContain('delegate_to_agent');
    const bad = await agent
      .send({ threadId: 't4', text: 'x', execution: { maxIterations: 0 } })
      .catch((e: unknown) => e);
    expect(ConfigurationError.isInstance(bad)).toBe(true);
    expect(await agent.store.loadThread('t4')).toBeUndefined();
  });
});
