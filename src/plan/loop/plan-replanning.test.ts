import { afterEach, describe, expect, it } from 'vitest';
import { call, createTripDomain, fail, finish, stepAbout } from '../../agent/fixtures/plan-domain.js';
import type { AgentOptions } from '../../agent/index.js';
import { createAgent } from '../../agent/index.js';
import type { Observation, StateStore, TodoListChanges } from '../../spec/index.js';
import { createMemoryStore } from '../../store/index.js';
import { createScriptedModel, type ScriptStep } from '../../test/index.js';
import { createSequentialIdGenerator } from '../../util/index.js';
import { readPlanState } from '../index.js';

const stores: StateStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

function setup(steps: ScriptStep[], options: Partial<AgentOptions> = {}) {
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
    ...options,
  });
  const seen: Observation[] = [];
  agent.subscribe((o) => seen.push(o));
  const updates = (cause: string) =>
    seen
      .filter((o) => o.type === 'plan-update' && o.data.cause === cause)
      .map((o) => o.data.changes as TodoListChanges);
  const skillOrder = () =>
    model.calls
      .filter((c) => c.phase === 'skill')
      .map((c) => /step item_\d+/.exec(JSON.stringify(c.prompt))?.[0].slice(5))
      .filter((id, index, all) => id !== all[index - 1]);
  return { agent, model, store, domain, seen, updates, skillOrder };
}

const abcd = {
  title: 'Four steps',
  items: [
    { id: 'a', description: 'Step A' },
    { id: 'b', description: 'Step B' },
    { id: 'c', description: 'Step C' },
    { id: 'd', description: 'Step D' },
  ],
};
const start: ScriptStep[] = [
  { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} } },
  { match: { phase: 'plan' }, json: abcd },
];
const end: ScriptStep[] = [
  { match: { phase: 'plan-review' }, json: { decision: 'finish' } },
  { match: { phase: 'synthesize' }, json: { content: 'All done.' } },
];

describe('replanning after each item', () => {
  it('reorders, expands and prunes once each, and reports each as the right plan-update diff', async () => {
    const { agent, model, updates, skillOrder } = setup([
      ...start,
      { match: stepAbout('Step A'), ...finish({ text: 'A found that C is urgent' }) },
      {
        match: { phase: 'replan' },
        json: { decision: 'reorder', order: ['item_3', 'item_2', 'item_4'], reason: 'C is urgent' },
      },
      { match: stepAbout('Step C'), ...finish({ text: 'C revealed extra work' }) },
      {
        match: { phase: 'replan' },
        json: { decision: 'expand', items: [{ id: 'e', description: 'Step E', dependsOn: ['item_3'] }] },
      },
      { match: stepAbout('Step E'), ...finish({ text: 'E done; D is no longer needed' }) },
      {
        match: { phase: 'replan' },
        json: { decision: 'prune', itemIds: ['item_4'], reason: 'E covered it' },
      },
      { match: stepAbout('Step B'), ...finish({ text: 'B done' }) },
      ...end,
    ]);
    const turn = await agent.send({ threadId: 't1', text: 'do the four steps' });
    expect(turn.reply).toBe('All done.');
    expect(model.remaining()).toBe(0);
    expect(skillOrder()).toEqual(['item_1', 'item_3', 'item_5', 'item_2']);

    const [reorder] = updates('replan');
    expect(reorder?.added).toEqual([]);
    expect(reorder?.removed).toEqual([]);
    expect(reorder?.modified).toHaveLength(1);
    const moved = reorder?.modified[0];
    expect(moved?.fields).toEqual(['position']);
    expect(['item_2', 'item_3']).toContain(moved?.id);
    expect(moved?.before.position).not.toBe(moved?.after.position);

    const expand = updates('replan')[1];
    expect(expand?.modified).toEqual([]);
    expect(expand?.added).toMatchObject([
      { id: 'item_5', description: 'Step E', dependsOn: ['item_3'], status: 'pending', position: 2 },
    ]);

    const prune = updates('replan')[2];
    expect(prune?.added).toEqual([]);
    expect(prune?.modified).toMatchObject([
      {
        id: 'item_4',
        fields: ['status', 'summary'],
        before: { status: 'pending' },
        after: { status: 'cancelled', summary: 'pruned: E covered it' },
      },
    ]);
    const plan = readPlanState((await agent.readThread('t1')).snapshot);
    expect(plan?.items.map((i) => `${i.description}:${i.status}`)).toEqual([
      'Step A:completed',
      'Step C:completed',
      'Step E:completed',
      'Step B:completed',
      'Step D:cancelled',
    ]);
  });

  it('applies an updatedPlan from inside a step, sanitized: finished items stay as they were', async () => {
    const { agent, updates, seen } = setup([
      ...start,
      {
        match: stepAbout('Step A'),
        ...call('update_plan', {
          items: [
            { id: 'item_1', description: 'Step A, renamed by the model' },
            { id: 'item_3', description: 'Step C, narrowed' },
            { description: 'Step F, newly found' },
          ],
          reason: 'B and D are not needed',
        }),
      },
      { match: stepAbout('Step A'), ...finish({ text: 'A done' }) },
      { match: { phase: 'replan' }, json: { decision: 'continue' } },
      { match: stepAbout('Step C, narrowed'), ...finish({ text: 'C done' }) },
      { match: { phase: 'replan' }, json: { decision: 'continue' } },
      { match: stepAbout('Step F'), ...finish({ text: 'F done' }) },
      ...end,
    ]);
    await agent.send({ threadId: 't1', text: 'go' });
    const [update] = updates('updated-plan');
    expect(update?.removed.map((i) => i.id).sort()).toEqual(['item_2', 'item_4']);
    expect(update?.added).toMatchObject([{ description: 'Step F, newly found', status: 'pending' }]);
    expect(update?.modified).toMatchObject([
      { id: 'item_3', fields: ['description'], before: { position: 2 }, after: { position: 1 } },
    ]);
    expect(seen.find((o) => o.type === 'plan-update' && o.data.cause === 'updated-plan')?.data.reason).toBe(
      'B and D are not needed',
    );
    const plan = readPlanState((await agent.readThread('t1')).snapshot);
    expect(plan?.items[0]).toMatchObject({ description: 'Step A', status: 'completed' });
    expect(plan?.items.map((i) => i.status)).toEqual(['completed', 'completed', 'completed']);
  });
});

describe('failed items under each failure policy', () => {
  const plan = {
    title: 'Sales report',
    items: [
      { id: 'fetch', description: 'Fetch the sales', requiredTools: ['query_archive'] },
      { id: 'chart', description: 'Chart the sales', dependsOn: ['fetch'] },
      {
        id: 'weather',
        description: 'Check the weather in Oslo',
        flow: 'check_weather',
        slots: { city: 'Oslo' },
      },
    ],
  };
  const failing: ScriptStep[] = [
    { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} } },
    { match: { phase: 'plan' }, json: plan },
    { match: stepAbout('Fetch the sales'), ...fail('the sales archive is down') },
  ];

  it('stop-and-synthesize: cancels what is left and synthesizes from what ran', async () => {
    const { agent, model } = setup(
      [...failing, { match: { phase: 'synthesize' }, json: { content: 'The sales could not be fetched.' } }],
      { plan: { treeSearch: 'off', failurePolicy: 'stop-and-synthesize' } },
    );
    const turn = await agent.send({ threadId: 't1', text: 'sales report' });
    expect(turn.reply).toBe('The sales could not be fetched.');
    expect(model.calls.some((c) => c.phase === 'plan-review')).toBe(false);
    const state = readPlanState((await agent.readThread('t1')).snapshot);
    expect(state?.items.map((i) => i.status)).toEqual(['failed', 'cancelled', 'cancelled']);
    expect(state?.items[0]?.summary).toBe('the sales archive is down');
    expect(JSON.stringify(model.calls.at(-1)?.prompt)).toContain('the sales archive is down');
  });

  it('skip-and-continue: cancels only what depends on the failed item, runs the rest', async () => {
    const { agent, model } = setup(
      [
        ...failing,
        { match: { phase: 'skill', flow: 'check_weather' }, ...finish({ summary: 'Snow in Oslo' }) },
        ...end,
      ],
      { plan: { treeSearch: 'off', failurePolicy: 'skip-and-continue' } },
    );
    await agent.send({ threadId: 't1', text: 'sales report' });
    expect(model.remaining()).toBe(0);
    const state = readPlanState((await agent.readThread('t1')).snapshot);
    expect(state?.items.map((i) => i.status)).toEqual(['failed', 'cancelled', 'completed']);
  });

  it('re-route: a replacement step takes over the failed one and its dependents', async () => {
    const { agent, model, updates, domain } = setup(
      [
        ...failing,
        {
          match: { phase: 'reroute' },
          json: {
            decision: 'replace',
            item: { description: 'Rebuild the sales from trip notes', requiredTools: ['query_archive'] },
          },
        },
        { match: stepAbout('Rebuild the sales'), ...call('query_archive', { topic: 'sales' }) },
        { match: stepAbout('Rebuild the sales'), ...finish({ text: 'sales rebuilt' }) },
        { match: { phase: 'replan' }, json: { decision: 'continue' } },
        { match: stepAbout('Chart the sales'), ...finish({ text: 'chart drawn' }) },
        { match: { phase: 'replan' }, json: { decision: 'continue' } },
        { match: { phase: 'skill', flow: 'check_weather' }, ...finish({ summary: 'Snow in Oslo' }) },
        ...end,
      ],
      { plan: { treeSearch: 'off', failurePolicy: 're-route' } },
    );
    await agent.send({ threadId: 't1', text: 'sales report' });
    expect(model.remaining()).toBe(0);
    expect(domain.executions).toEqual({ query_archive: 1 });
    const state = readPlanState((await agent.readThread('t1')).snapshot);
    expect(state?.items.map((i) => [i.description, i.status, i.replaces])).toEqual([
      ['Fetch the sales', 'failed', undefined],
      ['Rebuild the sales from trip notes', 'completed', 'item_1'],
      ['Chart the sales', 'completed', undefined],
      ['Check the weather in Oslo', 'completed', undefined],
    ]);
    const [reroute] = updates('failure-policy');
    expect(reroute?.added).toMatchObject([{ id: 'item_4', replaces: 'item_1', position: 1 }]);
    expect(reroute?.modified).toMatchObject([
      { id: 'item_2', fields: ['dependsOn'], after: { dependsOn: ['item_4'] } },
    ]);
  });

  it('sends back a step that skipped its required tool, then fails it when it never calls it', async () => {
    const { agent, model } = setup(
      [
        { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} } },
        { match: { phase: 'plan' }, json: { title: 'x', items: [plan.items[0]] } },
        { match: stepAbout('Fetch the sales'), ...finish({ text: 'sales were 42 (made up)' }), repeat: true },
        { match: { phase: 'plan-review' }, json: { decision: 'finish' } },
        { match: { phase: 'synthesize' }, json: { content: 'No sales figures.' } },
      ],
      { execution: { enforcementRetries: 2 } },
    );
    await agent.send({ threadId: 't1', text: 'sales' });
    expect(model.calls.filter((c) => c.phase === 'skill')).toHaveLength(3);
    expect(JSON.stringify(model.calls.filter((c) => c.phase === 'skill')[1]?.prompt)).toContain(
      "this step requires calling 'query_archive'",
    );
    const state = readPlanState((await agent.readThread('t1')).snapshot);
    expect(state?.items[0]).toMatchObject({
      status: 'failed',
      summary: expect.stringContaining('required tools: query_archive'),
    });
  });
});

describe('tree search over candidate plans', () => {
  const three = {
    title: 'Direct',
    strategies: 2,
    items: [{ description: 'Step A' }, { description: 'Step B' }],
  };
  it('scores 2–3 candidates against the objective and keeps the best when the model sees several strategies', async () => {
    const { agent, model, seen } = setup(
      [
        { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} } },
        { match: { phase: 'plan' }, json: three },
        {
          match: { phase: 'plan-alternatives' },
          json: {
            candidates: [
              { title: 'Cheaper', items: [{ description: 'Step Z' }] },
              { title: 'Broken', items: [{ id: 'x', description: 'X', dependsOn: ['x'] }] },
            ],
          },
        },
        {
          match: { phase: 'plan-score' },
          json: {
            scores: [
              { candidate: 0, score: 6, reason: 'two steps' },
              { candidate: 1, score: 9, reason: 'one step suffices' },
            ],
          },
        },
        { match: stepAbout('Step Z'), ...finish({ text: 'Z done' }) },
        ...end,
      ],
      { plan: { treeSearch: 'auto' } },
    );
    await agent.send({ threadId: 't1', text: 'do it' });
    expect(model.remaining()).toBe(0);
    const planEvent = seen.find((o) => o.type === 'plan');
    expect(planEvent?.data).toMatchObject({
      title: 'Cheaper',
      search: { chosen: 1, candidates: [{ title: 'Direct' }, { title: 'Cheaper' }] },
    });
  });

  it('is not used for a small plan with one strategy, nor when turned off for a large one', async () => {
    const small = setup(
      [
        { match: { phase: 'predict' }, json: { flow: 'plan', slots: {} } },
        { match: { phase: 'plan' }, json: { title: 'Small', items: [{ description: 'Step A' }] } },
        { match: stepAbout('Step A'), ...finish({ text: 'A' }) },
        ...end,
      ],
      { plan: { treeSearch: 'auto' } },
    );
    await small.agent.send({ threadId: 't1', text: 'x' });
    expect(small.model.calls.map((c) => c.phase)).not.toContain('plan-alternatives');
    const off = setup([
      ...start,
      { match: { phase: 'skill' }, ...finish({ text: 'ok' }), repeat: true },
      { match: { phase: 'replan' }, json: { decision: 'continue' }, repeat: true },
      ...end,
    ]);
    await off.agent.send({ threadId: 't1', text: 'x' });
    expect(off.model.calls.map((c) => c.phase)).not.toContain('plan-alternatives');
  });
});
