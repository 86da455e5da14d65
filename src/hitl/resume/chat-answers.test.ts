/**
 * Answers typed in the chat to a waiting run (issue 31, item 4 and 5), through `agent.send`: only a
 * clear yes approves, several waiting approvals are answered by number, the approval prompt shows every
 * argument, and an unknown outcome runs again only on an explicit "it did not happen".
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defaultAgentLimits } from '../../agent/index.js';
import { defineFlow } from '../../flow/index.js';
import type { StateStore } from '../../spec/index.js';
import { createMemoryStore, createSqliteStore } from '../../store/index.js';
import { createScriptedModel, type ScriptStep } from '../../test/index.js';
import { defineTool } from '../../tool/index.js';
import type { Clock } from '../../util/index.js';

const clock: Clock = { now: () => 1_000_000, sleep: () => new Promise(() => {}) };
const predictFlow = (flow: string): ScriptStep => ({
  match: { phase: 'predict' },
  json: { flow, slots: {} },
  repeat: true,
});

const cleanUp = defineFlow({
  name: 'clean_up',
  intent: 'transform',
  description: 'Drop the tables the user names.',
  slots: [],
  tools: ['drop_table'],
  skill: 'Drop each table with drop_table.',
});

function dropTableAgent(dropped: string[], calls: Array<{ table: string; callId: string }>) {
  const dropTable = defineTool({
    name: 'drop_table',
    description: 'Drops a database table.',
    input: z.object({ table: z.string() }),
    capability: 'restricted',
    execute: ({ table }) => {
      dropped.push(table);
      return { dropped: table };
    },
  });
  const model = createScriptedModel({
    steps: [
      predictFlow('clean_up'),
      {
        match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
        toolCalls: calls.map(({ table, callId }) => ({ toolName: 'drop_table', input: { table }, callId })),
      },
      { match: { phase: 'skill' }, text: 'Done.', repeat: true },
    ],
  });
  return createAgent({
    model,
    flows: [cleanUp],
    tools: [dropTable],
    store: createMemoryStore(),
    clock,
    // Restricted tools need a person's yes for each call (not the flow's confirmation before the run).
    toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
  });
}

describe('a chat approval takes only a clear yes (issue 31, item 4)', () => {
  const notYes = [
    'ok, but first tell me what table b holds',
    'Yes? what would that delete?',
    'Sure thing is that I do not want this',
  ];

  it.each(notYes)('%j approves neither of two waiting drop_table calls, and asks again', async (text) => {
    const dropped: string[] = [];
    const agent = dropTableAgent(dropped, [
      { table: 'a', callId: 'drop-a' },
      { table: 'b', callId: 'drop-b' },
    ]);
    const first = await agent.send({ threadId: 't', text: 'drop tables a and b' });
    expect(first.suspensions?.map((s) => s.status)).toEqual(['open', 'open']);
    const after = await agent.send({ threadId: 't', text });
    expect(dropped).toEqual([]);
    expect(after.status).toBe('suspended');
    expect(after.suspensions?.map((s) => [s.callId, s.status])).toEqual([
      ['drop-a', 'open'],
      ['drop-b', 'open'],
    ]);
    expect(after.reply).toContain('clear yes or no');
    expect(after.reply).toContain('1. Drops a database table (table: "a")?');
    expect(after.reply).toContain('2. Drops a database table (table: "b")?');
  });

  it.each(notYes)('%j does not approve a lone waiting call either', async (text) => {
    const dropped: string[] = [];
    const agent = dropTableAgent(dropped, [{ table: 'a', callId: 'drop-a' }]);
    await agent.send({ threadId: 't', text: 'drop table a' });
    const after = await agent.send({ threadId: 't', text });
    expect(dropped).toEqual([]);
    expect(after.suspensions).toEqual([expect.objectContaining({ callId: 'drop-a', status: 'open' })]);
    expect(after.reply).toContain('Waiting for you: Drops a database table (table: "a")?');
  });

  it('with two calls waiting, a plain yes answers none and names both; "yes to 2" and "no to 1, …" answer one each', async () => {
    const dropped: string[] = [];
    const agent = dropTableAgent(dropped, [
      { table: 'a', callId: 'drop-a' },
      { table: 'b', callId: 'drop-b' },
    ]);
    await agent.send({ threadId: 't', text: 'drop tables a and b' });
    const plain = await agent.send({ threadId: 't', text: 'yes' });
    expect(dropped).toEqual([]);
    expect(plain.reply).toContain('a plain yes does not say which one');
    expect(plain.reply).toContain('1. Drops a database table (table: "a")?');
    expect(plain.reply).toContain('2. Drops a database table (table: "b")?');
    expect(plain.suspensions?.map((s) => s.status)).toEqual(['open', 'open']);

    const second = await agent.send({ threadId: 't', text: 'yes to 2' });
    expect(dropped).toEqual([]); // the run goes on only when both are answered
    expect(second.suspensions).toEqual([expect.objectContaining({ callId: 'drop-a', status: 'open' })]);
    const last = await agent.send({ threadId: 't', text: 'no, table a holds the invoices' });
    expect(last.status).toBe('completed');
    expect(dropped).toEqual(['b']);
    const decisions = last.observations
      .filter((o) => o.type === 'resumed')
      .map((o) => [o.data.callId, o.data.decision]);
    expect(decisions).toEqual([
      ['drop-a', 'reject'],
      ['drop-b', 'approve'],
    ]);
  });
  it('"yes to all" approves every waiting call, by the person\'s word', async () => {
    const dropped: string[] = [];
    const agent = dropTableAgent(dropped, [
      { table: 'a', callId: 'drop-a' },
      { table: 'b', callId: 'drop-b' },
    ]);
    await agent.send({ threadId: 't', text: 'drop tables a and b' });
    const after = await agent.send({ threadId: 't', text: 'yes to all' });
    expect(after.status).toBe('completed');
    expect(dropped).toEqual(['a', 'b']);
  });
});

describe('the approval prompt shows every argument (issue 31, item 4)', () => {
  it("in the schema order and the tool's words, a long memo shortened in the middle, so amount and to stay in sight", async () => {
    const paid: unknown[] = [];
    const pay = defineTool({
      name: 'pay',
      title: 'Pay someone',
      description: 'Pays someone.',
      // Titles where the schema gives them (a title, or a short description), the name otherwise.
      input: z.object({
        to: z.string().meta({ title: 'Recipient' }),
        amount: z.number().describe('Amount'),
        currency: z.string(),
        memo: z.string(),
      }),
      capability: 'restricted',
      execute: (input) => {
        paid.push(input);
        return { ok: true };
      },
    });
    const memo = `Rent for March. ${'Nothing to see here. '.repeat(40)}Thanks!`;
    const model = createScriptedModel({
      steps: [
        predictFlow('pay_rent'),
        {
          match: { phase: 'skill' },
          // The model puts the long memo first, as an injected instruction would ask it to.
          toolCalls: [
            {
              toolName: 'pay',
              input: { memo, currency: 'EUR', amount: 9_000, to: 'mallory@evil.test' },
              callId: 'p1',
            },
          ],
        },
      ],
    });
    const agent = createAgent({
      model,
      flows: [
        defineFlow({
          name: 'pay_rent',
          intent: 'transform',
          description: 'Pay the rent.',
          slots: [],
          tools: ['pay'],
          skill: 'Pay the rent.',
        }),
      ],
      tools: [pay],
      store: createMemoryStore(),
      clock,
      toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
    });
    const turn = await agent.send({ threadId: 't', text: 'pay the rent' });
    const prompt = turn.suspensions?.[0]?.prompt ?? '';
    expect(prompt).toMatch(
      /^Pay someone \(Recipient: "mallory@evil\.test", Amount: 9000, currency: "EUR", memo: "Rent for March\. Nothing to see.{0,40}….{0,40}here\. Thanks!"\)\?/,
    );
    expect(prompt.length).toBeLessThan(250);
    expect(paid).toEqual([]);
  });
});

describe('an unclear answer to an unknown outcome runs nothing again (issue 31, item 5)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowstack-unknown-'));
  const stores: StateStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  const payDeposit = defineFlow({
    name: 'pay_deposit',
    intent: 'transform',
    description: 'Pay the deposit.',
    slots: [],
    tools: ['charge_card'],
    skill: 'Charge the deposit.',
  });
  const model = () =>
    createScriptedModel({
      steps: [
        predictFlow('pay_deposit'),
        {
          match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
          toolCalls: [{ toolName: 'charge_card', input: { amount: 30 }, callId: 'charge-1' }],
          repeat: true,
        },
        { match: { phase: 'skill' }, text: 'Deposit paid.', repeat: true },
      ],
    });
  /** A non-idempotent charge; `hang` makes it stop after the charge, as a process killed right then. */
  const chargeCard = (charges: number[], hang?: () => void) =>
    defineTool({
      name: 'charge_card',
      description: 'Charges the card.',
      input: z.object({ amount: z.number() }),
      idempotent: false,
      execute: ({ amount }) => {
        charges.push(amount);
        if (!hang) return { charged: amount };
        hang();
        return new Promise<never>(() => {});
      },
    });

  it('"no idea, can you check?" asks again and does not charge; "it did not happen" charges once more', async () => {
    const path = join(dir, 'unknown.db');
    const charges: number[] = [];
    let died: () => void = () => {};
    const dead = new Promise<void>((resolve) => {
      died = resolve;
    });
    const first = createSqliteStore({ path });
    stores.push(first);
    void createAgent({
      model: model(),
      flows: [payDeposit],
      tools: [chargeCard(charges, died)],
      store: first,
      clock,
      toolPipeline: { simulate: undefined },
    }).send({ threadId: 't', text: 'pay the deposit', requestId: 'r1' });
    await dead;

    const store = createSqliteStore({ path });
    stores.push(store);
    const later = 1_000_000 + defaultAgentLimits.leaseTtlMs + 1;
    const agent = createAgent({
      model: model(),
      flows: [payDeposit],
      tools: [chargeCard(charges)],
      store,
      clock: { now: () => later, sleep: () => new Promise(() => {}) },
      toolPipeline: { simulate: undefined },
    });
    const retried = await agent.send({ threadId: 't', text: 'pay the deposit', requestId: 'r1' });
    expect(retried.suspensions).toEqual([
      expect.objectContaining({ kind: 'outcome_unknown', toolName: 'charge_card', status: 'open' }),
    ]);
    expect(charges).toEqual([30]);

    for (const text of ['no idea, can you check?', 'no', 'not sure', 'cancel']) {
      const unclear = await agent.send({ threadId: 't', text });
      expect({ text, charges }).toEqual({ text, charges: [30] });
      expect(unclear.status).toBe('suspended');
      expect(unclear.reply).toContain('it did not happen');
      expect(unclear.suspensions).toEqual([
        expect.objectContaining({ kind: 'outcome_unknown', status: 'open' }),
      ]);
    }

    const answered = await agent.send({ threadId: 't', text: 'It did not happen' });
    expect(answered.reply).toBe('Deposit paid.');
    expect(charges).toEqual([30, 30]);
  });
});
