import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { createTripDomain, finish, stepAbout } from '../../agent/fixtures/plan-domain.js';
import { createTripPlanModel, hangAt } from '../../agent/fixtures/trip-plan-model.js';
import type { AgentOptions } from '../../agent/index.js';
import { createAgent, defaultAgentLimits } from '../../agent/index.js';
import type { Observation, StateStore, TodoListChanges } from '../../spec/index.js';
import { createMemoryStore, createSqliteStore } from '../../store/index.js';
import { createScriptedModel, type ScriptStep } from '../../test/index.js';
import { type Clock, createSequentialIdGenerator } from '../../util/index.js';
import { readPlanState } from '../index.js';

const dir = mkdtempSync(join(tmpdir(), 'flowstack-plan-'));
const stores: StateStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

/**
 * A clock that stands still, and whose sleeps never end: a process "killed" while it waits on the
 * model stays stopped (its idle timers never fire), as a real killed process would.
 */
function manualClock(now = 1_000_000): Clock {
  return {
    now: () => now,
    sleep: (_ms, signal) =>
      new Promise<void>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
  };
}

/** A fresh agent on the thread's SQLite file: what a restarted process would build. */
function freshAgent(
  path: string,
  model: LanguageModelV3,
  domain: ReturnType<typeof createTripDomain>,
  options: Partial<AgentOptions> = {},
) {
  const store = createSqliteStore({ path });
  stores.push(store);
  const agent = createAgent({
    model,
    flows: domain.flows,
    tools: domain.tools,
    store,
    plan: { treeSearch: 'off' },
    ...options,
  });
  const seen: Observation[] = [];
  agent.subscribe((o) => seen.push(o));
  return { agent, seen };
}

const request = 'Plan a weekend in Lisbon for me';

describe('a plan survives a restart between any two items', () => {
  it('with a fresh agent (and store handle) for every item', async () => {
    const path = join(dir, 'per-item.db');
    const domain = createTripDomain();
    const baseline = await freshAgent(
      join(dir, 'baseline.db'),
      createTripPlanModel(),
      createTripDomain(),
    ).agent.send({ threadId: 't', text: request });
    const replies: string[] = [];
    for (let turn = 0; turn < 6; turn++) {
      const { agent } = freshAgent(path, createTripPlanModel(), domain, { limits: { maxFlowsPerTurn: 1 } });
      const result = await agent.send({ threadId: 't', text: turn === 0 ? request : 'continue' });
      replies.push(result.reply);
      const plan = readPlanState((await agent.readThread('t')).snapshot);
      if (plan?.status === 'completed') break;
      expect(plan?.items.filter((i) => i.status === 'completed')).toHaveLength(turn + 1);
    }
    expect(replies.slice(0, 3)).toEqual([
      'Progress on "Weekend in Lisbon": 1 of 4 steps done (a turn runs at most 1: `limits.maxFlowsPerTurn`). Send "continue" to go on, or tell me what to change.',
      'Progress on "Weekend in Lisbon": 2 of 4 steps done (a turn runs at most 1: `limits.maxFlowsPerTurn`). Send "continue" to go on, or tell me what to change.',
      'Progress on "Weekend in Lisbon": 3 of 4 steps done (a turn runs at most 1: `limits.maxFlowsPerTurn`). Send "continue" to go on, or tell me what to change.',
    ]);
    expect(replies).toHaveLength(4);
    expect(replies.at(-1)).toBe(baseline.reply);
    expect(domain.executions).toEqual({ find_flights: 1, lookup_weather: 1, search_hotels: 1 });
  });

  it('after a crash at every save point, a new process finishes with the same answer and runs nothing twice', async () => {
    const reference = createTripPlanModel();
    const baseline = await freshAgent(join(dir, 'reference.db'), reference, createTripDomain()).agent.send({
      threadId: 't',
      text: request,
    });
    expect(baseline.reply).toBe(
      'Find flights to Lisbon: TP123 at €120 | Check the weather in Lisbon: sunny, 24 °C | Find a hotel in Lisbon: Casa Azul at €90 | Write a two-day itinerary: Day 1: Alfama. Day 2: Belém.',
    );
    // Every model call after the plan is saved follows a save point: an item saved in progress (its first
    // skill call), an item whose tool ran (its second), an item saved completed (the replanning check), all
    // items settled (the review) and the review's decision (synthesis).
    const phases = reference.calls.map((c) => c.phase);
    const first = phases.indexOf('plan') + 2;
    const crashPoints = Array.from({ length: phases.length - first + 1 }, (_, n) => first + n);
    expect(phases.slice(phases.indexOf('plan') + 1)).toEqual([
      'skill',
      'skill',
      'replan',
      'skill',
      'skill',
      'replan',
      'skill',
      'skill',
      'replan',
      'skill',
      'plan-review',
      'synthesize',
    ]);
    for (const point of crashPoints) {
      const path = join(dir, `crash-${point}.db`);
      const domain = createTripDomain();
      const hung = hangAt(createTripPlanModel(), point);
      const first = freshAgent(path, hung.model, domain, { clock: manualClock() });
      void first.agent.send({ threadId: 't', text: request });
      const phase = await hung.reached;
      // The new process comes up after the dead one's lease ran out.
      const later = manualClock(1_000_000 + defaultAgentLimits.leaseTtlMs + 1);
      const second = freshAgent(path, createTripPlanModel(), domain, { clock: later });
      const result = await second.agent.send({ threadId: 't', text: 'continue' });
      expect({ point, phase, reply: result.reply }).toEqual({ point, phase, reply: baseline.reply });
      expect({ point, executions: domain.executions }).toEqual({
        point,
        executions: { find_flights: 1, lookup_weather: 1, search_hotels: 1 },
      });
      const completedBefore = first.seen
        .filter((o) => o.type === 'item-status-change' && o.data.to === 'completed')
        .map((o) => o.parentId);
      const startedAfter = second.seen
        .filter((o) => o.type === 'item-status-change' && o.data.to === 'in_progress')
        .map((o) => o.parentId);
      expect(startedAfter.filter((id) => completedBefore.includes(id))).toEqual([]);
    }
  });

  it('an abandoned plan leaves no sub-flow behind', async () => {
    const path = join(dir, 'abandon.db');
    const domain = createTripDomain();
    // Crash inside the second item, so its sub-flow is on the stack above the Plan flow.
    const reference = createTripPlanModel();
    await freshAgent(join(dir, 'abandon-ref.db'), reference, createTripDomain()).agent.send({
      threadId: 't',
      text: request,
    });
    const secondItemToolCall =
      reference.calls.findIndex(
        (c, i) => c.flow === 'check_weather' && reference.calls[i + 1]?.flow === 'check_weather',
      ) + 2;
    const hung = hangAt(createTripPlanModel(), secondItemToolCall);
    const first = freshAgent(path, hung.model, domain, { clock: manualClock() });
    void first.agent.send({ threadId: 't', text: request });
    await hung.reached;
    const before = (await first.agent.readThread('t')).snapshot;
    const planId = readPlanState(before)?.id;
    expect(before.stack.map((f) => [f.name, f.status, f.planId])).toEqual([
      ['plan', 'pending', planId],
      ['check_weather', 'active', planId],
    ]);
    const second = freshAgent(path, createTripPlanModel(), domain, {
      clock: manualClock(1_000_000 + defaultAgentLimits.leaseTtlMs + 1),
    });
    const result = await second.agent.send({ threadId: 't', text: 'stop, forget the plan' });
    expect(result.reply).toBe('I stopped the plan "Weekend in Lisbon" after 1 of 4 steps.');
    expect(result.stack).toEqual([]);
    const after = (await second.agent.readThread('t')).snapshot;
    expect(after.stack.filter((f) => f.planId === planId || f.id === planId)).toEqual([]);
    const plan = readPlanState(after);
    expect(plan?.status).toBe('abandoned');
    expect(plan?.items.map((i) => i.status)).toEqual(['completed', 'cancelled', 'cancelled', 'cancelled']);
    expect(second.seen.filter((o) => o.type === 'flow-pop').map((o) => [o.data.flow, o.data.status])).toEqual(
      [
        ['check_weather', 'invalid'],
        ['plan', 'invalid'],
      ],
    );
    const update = second.seen.find((o) => o.type === 'plan-update' && o.data.cause === 'abandon');
    expect(
      (update?.data.changes as TodoListChanges | undefined)?.modified.map((m) => m.after.status),
    ).toEqual(['cancelled', 'cancelled', 'cancelled']);
    // The next message starts afresh: routed as usual, no plan in the way.
    expect(domain.executions).toEqual({ find_flights: 1, lookup_weather: 1 });
  });
});

describe('a refinement message mid-plan', () => {
  it('refines the running plan instead of starting a new one', async () => {
    const store = createMemoryStore();
    stores.push(store);
    const domain = createTripDomain();
    const steps: ScriptStep[] = [
      { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} } },
      {
        match: { phase: 'plan' },
        json: {
          title: 'Lisbon',
          items: [
            { description: 'Check the weather in Lisbon', flow: 'check_weather', slots: { city: 'Lisbon' } },
            { description: 'Find a hotel in Lisbon', flow: 'find_hotels', slots: { city: 'Lisbon' } },
            { description: 'Write a two-day itinerary', dependsOn: ['#1', '#2'] },
          ],
        },
      },
      { match: { phase: 'skill', flow: 'check_weather' }, ...finish({ summary: 'Sunny' }) },
      { match: { phase: 'replan' }, json: { decision: 'continue' } },
      { match: { phase: 'skill', flow: 'find_hotels' }, ...finish({ summary: 'Casa Azul' }) },
      { match: { phase: 'replan' }, json: { decision: 'continue' } },
      {
        match: { phase: 'refine', lastUser: 'museums' },
        json: {
          decision: 'refine',
          reason: 'the user also wants museums',
          items: [
            { description: 'Find museums open this weekend', id: 'museums' },
            {
              id: 'item_3',
              description: 'Write a two-day itinerary',
              dependsOn: ['item_1', 'item_2', 'museums'],
            },
          ],
        },
      },
      { match: stepAbout('Find museums'), ...finish({ text: 'MAAT and Gulbenkian' }) },
      { match: { phase: 'replan' }, json: { decision: 'continue' } },
      { match: stepAbout('two-day itinerary'), ...finish({ text: 'Day 1: MAAT. Day 2: Gulbenkian.' }) },
      { match: { phase: 'plan-review' }, json: { decision: 'finish' } },
      {
        match: { phase: 'synthesize' },
        json: { content: 'Sunny weekend at Casa Azul: MAAT, then Gulbenkian.' },
      },
    ];
    const model = createScriptedModel({ steps });
    const agent = createAgent({
      model,
      flows: domain.flows,
      tools: domain.tools,
      store,
      ids: createSequentialIdGenerator(),
      plan: { treeSearch: 'off' },
      limits: { maxFlowsPerTurn: 2 },
    });
    const seen: Observation[] = [];
    agent.subscribe((o) => seen.push(o));
    const first = await agent.send({ threadId: 't1', text: 'Plan my Lisbon weekend' });
    expect(first.reply).toBe(
      'Progress on "Lisbon": 2 of 3 steps done (a turn runs at most 2: `limits.maxFlowsPerTurn`). Send "continue" to go on, or tell me what to change.',
    );
    const second = await agent.send({ threadId: 't1', text: 'also check which museums are open' });
    expect(second.reply).toBe('Sunny weekend at Casa Azul: MAAT, then Gulbenkian.');
    expect(model.remaining()).toBe(0);
    expect(model.calls.filter((c) => c.phase === 'plan' || c.phase === 'predict')).toHaveLength(2);
    const refine = seen.find((o) => o.type === 'plan-update' && o.data.cause === 'refine');
    const changes = refine?.data.changes as TodoListChanges;
    expect(changes.added).toMatchObject([
      { id: 'item_4', description: 'Find museums open this weekend', position: 2 },
    ]);
    expect(changes.modified).toMatchObject([
      { id: 'item_3', fields: ['dependsOn'], after: { dependsOn: ['item_1', 'item_2', 'item_4'] } },
    ]);
    const plans = seen.filter((o) => o.type === 'plan');
    expect(plans).toHaveLength(1);
    const plan = readPlanState((await agent.readThread('t1')).snapshot);
    expect(plan?.id).toBe(plans[0]?.data.planId);
    expect(plan?.items.map((i) => i.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
  });

  it('abandons the whole plan on the decision layer’s "cancel", without a model call', async () => {
    const path = join(dir, 'cancel.db');
    const domain = createTripDomain();
    const first = freshAgent(path, createTripPlanModel(), domain, { limits: { maxFlowsPerTurn: 2 } });
    await first.agent.send({ threadId: 't', text: request });
    const model = createTripPlanModel();
    const second = freshAgent(path, model, domain);
    const result = await second.agent.send({ threadId: 't', text: 'cancel' });
    expect(result.reply).toBe('I stopped the plan "Weekend in Lisbon" after 2 of 4 steps.');
    expect(result.stack).toEqual([]);
    expect(model.callCount).toBe(0);
    const plan = readPlanState((await second.agent.readThread('t')).snapshot);
    expect(plan?.status).toBe('abandoned');
    expect(plan?.items.map((i) => i.status)).toEqual(['completed', 'completed', 'cancelled', 'cancelled']);
  });
});
