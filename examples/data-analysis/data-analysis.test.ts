import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createSequentialIdGenerator, systemClock } from '../../src/blocks.js';
import { createMemoryStore } from '../../src/index.js';
import type { ScriptedModel } from '../../src/test/index.js';
import { createDataAnalysisDemoModel } from './demo-model.js';
import { createDataAnalysisExample } from './index.js';

function setup() {
  const model = createDataAnalysisDemoModel();
  const example = createDataAnalysisExample({
    store: createMemoryStore(),
    model,
    datasetPath: ':memory:',
    ids: createSequentialIdGenerator(),
    clock: { now: () => 1_000, sleep: systemClock.sleep },
  });
  return { example, model };
}

const phases = (model: ScriptedModel, from: number) =>
  model.calls.slice(from).map((c) => `${c.phase}:${c.flow ?? ''}`);

describe('the data-analysis example', () => {
  it('a change of mind mid-flow, a clarification, the staging-table fallback, an approval, background Internal flows', async () => {
    const { example, model } = setup();
    const { agent } = example;
    const send = (text: string) => agent.send({ threadId: 'mind', text });

    // 1. A fast path starts a chart; its grouping is missing, so it asks (no model call at all).
    const first = await send('chart revenue');
    expect(first.reply).toBe('How should I group it, by region, product or month?');
    expect(first.pending).toMatchObject({
      kind: 'slot',
      slot: 'group_by',
      options: ['region', 'product', 'month'],
    });
    expect(model.callCount).toBe(0);

    // 2. The user changes their mind: a query stacks on top, runs, and the chart waits and asks again.
    const second = await send('actually, first show me the top 3 products by revenue');
    // Once the query is done, the chart resumes and slot review looks for the grouping in the conversation.
    expect(phases(model, 0)).toEqual([
      'predict:',
      'skill:query_data',
      'skill:query_data',
      'fill-slots:make_chart',
    ]);
    expect(second.reply).toBe(
      'How should I group it, by region, product or month?\n\n3 rows from sales; the first is Support plan, 44748.',
    );
    expect(second.frames).toEqual([
      {
        flow: 'query_data',
        displayType: 'table',
        source: 'sales',
        data: [
          { product: 'Support plan', revenue: 44748 },
          { product: 'Gadget', revenue: 17280 },
          { product: 'Manual', revenue: 8820 },
        ],
      },
    ]);
    expect(second.stack.map((f) => `${f.name}:${f.status}`)).toEqual(['make_chart:active']);
    const secondDiff = (await agent.readThread('mind')).snapshot.diffs
      ?.at(-1)
      ?.changes.map((c) =>
        c.op === 'flags'
          ? `flags ${JSON.stringify(c.set)}`
          : `${c.op} ${'name' in c ? c.name : ''}${c.op === 'status' ? ` ${c.from}→${c.to}` : ''}`,
      );
    expect(secondDiff).toEqual([
      'status make_chart active→pending',
      'push query_data',
      'slots query_data',
      'status query_data active→completed',
      'pop query_data',
      'status make_chart pending→active',
      'flags {"keepGoing":true}',
      'flags {"keepGoing":false}',
    ]);

    // 3. The answer to the clarification fills the slot and the chart resumes and finishes.
    const third = await send('region');
    expect(third.reply).toBe('revenue by region: east leads with 24158.5.');
    expect(third.frames[0]).toMatchObject({ flow: 'make_chart', displayType: 'chart', chartType: 'bar' });
    expect(third.stack).toEqual([]);

    // 4. A query on a table that does not exist yet falls back to creating it as a staging table.
    const fourth = await send('how many orders are in staging_orders?');
    expect(fourth.reply).toBe(
      'Created the staging table staging_orders (id, data); it is empty, so there is nothing to count yet.',
    );
    expect(fourth.observations.find((o) => o.type === 'recovery')?.data).toMatchObject({
      action: 'hard-coded-fallback',
      flow: 'query_data',
      to: 'create_staging_table',
    });
    expect(example.dataset.prepare('SELECT COUNT(*) AS n FROM staging_orders').get()).toEqual({ n: 0 });

    // 5. A price change needs approval; after "yes" it runs once and starts two Internal flows.
    const fifth = await send('raise the price of Widget by 10%');
    expect(fifth.pending?.kind).toBe('confirmation');
    expect(example.dataset.prepare("SELECT unit_price FROM products WHERE product = 'Widget'").get()).toEqual(
      { unit_price: 12.5 },
    );
    const sixth = await send('yes');
    expect(sixth.reply).toBe('Widget now costs 13.75 (was 12.5).');
    expect(example.dataset.prepare("SELECT unit_price FROM products WHERE product = 'Widget'").get()).toEqual(
      { unit_price: 13.75 },
    );

    // The final snapshot, written out once and checked by reading it (see the fixture beside this test).
    const expected = JSON.parse(
      readFileSync(join(import.meta.dirname, 'fixtures', 'change-of-mind-snapshot.json'), 'utf8'),
    );
    // Background Internal flows go on after the reply (seed 001); their results land in the thread when done.
    await vi.waitFor(async () => expect((await agent.readThread('mind')).snapshot.background).toEqual([]));
    const { snapshot } = await agent.readThread('mind');
    expect(snapshot).toEqual(expected);
    await agent.close();
  });

  it('frames every row the tool returned, though the model saw only a capped text of them', async () => {
    const { example, model } = setup();
    const turn = await example.agent.send({ threadId: 't', text: 'show me the sales' });
    expect(turn.reply).toBe('20 rows from sales; the first is 1, 2026-01-09, west, Widget, 2, 25.');
    expect(turn.frames[0]?.displayType).toBe('table');
    expect(turn.frames[0]?.data).toHaveLength(20);
    expect(JSON.stringify(model.calls.at(-1)?.prompt.at(-1))).toContain('characters omitted');
    await example.agent.close();
  });

  it('answers "by month" to "by region, product or month?" with the monthly chart', async () => {
    const { example } = setup();
    const send = (text: string) => example.agent.send({ threadId: 'grouping', text });
    const asked = await send('chart revenue');
    expect(asked.reply).toBe('How should I group it, by region, product or month?');
    const chart = await send('by month');
    expect(chart.status).toBe('completed');
    expect(chart.reply).toContain('revenue by month');
    expect(chart.frames[0]).toMatchObject({ displayType: 'chart', chartType: 'bar' });
    await example.agent.close();
  });
});
