import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentOptions } from '../../agent/index.js';
import { createAgent } from '../../agent/index.js';
import { SuspensionError } from '../../errors/index.js';
import { defineFlow } from '../../flow/index.js';
import { createTransferTool, payBills } from '../../server/fixtures/transfer-agent.js';
import type { StateStore } from '../../spec/index.js';
import { createSqliteStore } from '../../store/index.js';
import { createScriptedModel, type ScriptStep } from '../../test/index.js';
import { defineTool } from '../../tool/index.js';
import type { Clock } from '../../util/index.js';

const dir = mkdtempSync(join(tmpdir(), 'flowstack-approvals-'));
const stores: StateStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
});

const clock: Clock = { now: () => 1_000_000, sleep: () => new Promise(() => {}) };

/** What the tool results in the prompt say, so the model can decide its next step from them alone. */
function results(call: LanguageModelV3CallOptions): string {
  return JSON.stringify(call.prompt.filter((m) => m.role === 'tool' || m.role === 'user'));
}

function agentOn(path: string, steps: ScriptStep[], done: string[], extra: Partial<AgentOptions> = {}) {
  const store = createSqliteStore({ path });
  stores.push(store);
  const model = createScriptedModel({ steps });
  const agent = createAgent({
    model,
    flows: [payBills],
    tools: [createTransferTool(done)],
    store,
    clock,
    toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
    ...extra,
  });
  return { agent, model };
}

const predict: ScriptStep = {
  match: { phase: 'predict' },
  json: { flow: 'pay_bills', slots: {} },
  repeat: true,
};
const payBoth: ScriptStep = {
  match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
  toolCalls: [
    { toolName: 'transfer', input: { to: 'ana', amount: 10 }, callId: 'pay-ana' },
    { toolName: 'transfer', input: { to: 'bob', amount: 20 }, callId: 'pay-bob' },
  ],
};

describe('approvals (DESIGN.md invariant 7)', () => {
  it('two parallel approvals answered in reverse order after a restart each run the right call, once', async () => {
    const path = join(dir, 'reverse.db');
    const done: string[] = [];
    const finish: ScriptStep = {
      match: { phase: 'skill' },
      respond: (call) => ({
        text: results(call).includes('edited') ? 'Paid Ana (edited) and Bob.' : 'Paid Ana and Bob.',
      }),
    };
    const first = await agentOn(path, [predict, payBoth], done).agent.send({
      threadId: 't',
      text: 'pay ana and bob',
    });
    expect(first.status).toBe('suspended');
    expect(done).toEqual([]);
    const [forAna, forBob] = first.suspensions ?? [];
    expect(forAna).toMatchObject({
      kind: 'approval',
      toolName: 'transfer',
      callId: 'pay-ana',
      input: { to: 'ana', amount: 10 },
    });
    expect(forBob).toMatchObject({ kind: 'approval', callId: 'pay-bob', status: 'open' });

    // A restart: a fresh agent and store handle answer Bob first.
    const bobFirst = await agentOn(path, [predict], done).agent.resume({
      threadId: 't',
      suspensionId: forBob?.id ?? '',
      feedback: { decision: 'approve' },
    });
    expect(bobFirst.status).toBe('suspended');
    expect(bobFirst.reply).toContain('Transfers money to a person (to: "ana", amount: 10)?');
    expect(bobFirst.suspensions?.map((s) => s.id)).toEqual([forAna?.id]);
    expect(done).toEqual([]);

    // Another restart; Ana's amount is edited before it is approved.
    const last = agentOn(path, [predict, finish], done);
    const after = await last.agent.resume({
      threadId: 't',
      suspensionId: forAna?.id ?? '',
      feedback: { decision: 'edit', arguments: { to: 'ana', amount: 15 } },
    });
    expect(after.status).toBe('completed');
    expect(done.sort()).toEqual(['ana:15', 'bob:20']);
    expect(after.reply).toBe('Paid Ana (edited) and Bob.');
    const journal = await last.agent.store.listJournal('t');
    // Both run once the step's last question is answered, in the order the model asked for them.
    expect(journal.filter((e) => e.toolName === 'transfer').map((e) => [e.callId, e.status])).toEqual([
      ['pay-ana', 'succeeded'],
      ['pay-bob', 'succeeded'],
    ]);
    await expect(
      last.agent.resume({ threadId: 't', suspensionId: forAna?.id ?? '', feedback: { decision: 'approve' } }),
    ).rejects.toMatchObject({ reason: 'answered' });
  });

  it('a rejected call never runs, and the model calling it again with the same arguments gets the refusal', async () => {
    const done: string[] = [];
    const steps: ScriptStep[] = [
      predict,
      {
        match: { phase: 'skill' },
        toolCalls: [{ toolName: 'transfer', input: { to: 'eve', amount: 99 }, callId: 'pay-eve' }],
      },
      // The model tries again with the same arguments, then gives up.
      {
        match: { phase: 'skill' },
        toolCalls: [{ toolName: 'transfer', input: { to: 'eve', amount: 99 }, callId: 'pay-eve-2' }],
      },
      {
        match: { phase: 'skill' },
        respond: (call) => ({
          toolCalls: [
            {
              toolName: 'finish_skill',
              input: {
                outcome: 'failure',
                errorCategory: 'auth_error',
                message: results(call).includes('refused this call')
                  ? 'Eve was not paid: refused.'
                  : 'unexpected',
              },
            },
          ],
        }),
      },
    ];
    const { agent, model } = agentOn(join(dir, 'reject.db'), steps, done);
    const first = await agent.send({ threadId: 't', text: 'pay eve' });
    const question = first.suspensions?.[0];
    const after = await agent.resume({
      threadId: 't',
      suspensionId: question?.id ?? '',
      feedback: { decision: 'reject', reason: 'Eve is not a supplier' },
    });
    expect(done).toEqual([]);
    // The model read the refusal (its message says so); the user reads the decision.
    expect(JSON.stringify(model.calls.at(-1)?.prompt)).toContain('refused this call: Eve is not a supplier');
    expect(after.reply).toBe(
      'OK, I did not go ahead with "Transfers money to a person" (Eve is not a supplier).',
    );
    expect(after.status).toBe('completed');
    expect(after.suspensions).toBeUndefined();
  });

  it('a changed argument needs a new approval: the approved call runs, the changed one waits', async () => {
    const done: string[] = [];
    const steps: ScriptStep[] = [
      predict,
      {
        match: { phase: 'skill' },
        toolCalls: [{ toolName: 'transfer', input: { to: 'ana', amount: 10 }, callId: 'c1' }],
      },
      // After the approved call ran, the model asks for the same transfer with a higher amount.
      {
        match: { phase: 'skill' },
        toolCalls: [{ toolName: 'transfer', input: { to: 'ana', amount: 500 }, callId: 'c2' }],
      },
    ];
    const { agent } = agentOn(join(dir, 'changed.db'), steps, done);
    const first = await agent.send({ threadId: 't', text: 'pay ana' });
    const after = await agent.resume({
      threadId: 't',
      suspensionId: first.suspensions?.[0]?.id ?? '',
      feedback: { decision: 'approve' },
    });
    expect(done).toEqual(['ana:10']);
    expect(after.status).toBe('suspended');
    expect(after.suspensions).toEqual([
      expect.objectContaining({
        kind: 'approval',
        // A call of a resumed run carries the resumption in its id (docs/decisions/0079).
        callId: expect.stringMatching(/^c2_r\d+$/),
        input: { to: 'ana', amount: 500 },
        status: 'open',
      }),
    ]);
  });

  it('answers that do not fit, unknown ids and expired requests are typed errors that change nothing', async () => {
    const done: string[] = [];
    let now = 1_000_000;
    const ticking: Clock = { now: () => now, sleep: () => new Promise(() => {}) };
    const { agent } = agentOn(join(dir, 'errors.db'), [predict, payBoth], done, {
      clock: ticking,
      limits: { approvalTtlMs: 60_000 },
    });
    const first = await agent.send({ threadId: 't', text: 'pay ana and bob' });
    const id = first.suspensions?.[0]?.id ?? '';
    const before = await agent.readThread('t');
    await expect(
      agent.resume({ threadId: 't', suspensionId: id, feedback: { decision: 'maybe' } }),
    ).rejects.toSatisfy((e) => SuspensionError.isInstance(e) && e.reason === 'invalid_feedback');
    await expect(
      agent.resume({
        threadId: 't',
        suspensionId: id,
        feedback: { decision: 'edit', arguments: { to: 'ana', amount: -5 } },
      }),
    ).rejects.toMatchObject({ reason: 'invalid_feedback' });
    await expect(
      agent.resume({ threadId: 't', suspensionId: 'susp_nope', feedback: { decision: 'approve' } }),
    ).rejects.toMatchObject({
      reason: 'not_found',
    });
    expect((await agent.readThread('t')).version).toBe(before.version);
    now += 60_000;
    await expect(
      agent.resume({ threadId: 't', suspensionId: id, feedback: { decision: 'approve' } }),
    ).rejects.toMatchObject({
      reason: 'expired',
    });
    expect(done).toEqual([]);
  });

  it('takes a plain "yes" in the chat as the approval of the one waiting call', async () => {
    const done: string[] = [];
    const steps: ScriptStep[] = [
      predict,
      {
        match: { phase: 'skill' },
        toolCalls: [{ toolName: 'transfer', input: { to: 'ana', amount: 10 }, callId: 'c1' }],
      },
      { match: { phase: 'skill' }, text: 'Paid Ana 10.' },
    ];
    const { agent, model } = agentOn(join(dir, 'chat-yes.db'), steps, done);
    await agent.send({ threadId: 't', text: 'pay ana' });
    const after = await agent.send({ threadId: 't', text: 'yes, go ahead' });
    expect(after.reply).toBe('Paid Ana 10.');
    expect(done).toEqual(['ana:10']);
    expect(model.calls.filter((c) => c.phase === 'predict')).toHaveLength(1);
  });
});

describe('blocking tools: the answer is the result (DESIGN.md invariant 6)', () => {
  it('completes the call with the validated answer and answers a repeat call without asking again', async () => {
    const chooseSeat = defineTool({
      name: 'choose_seat',
      description: 'Asks the traveller for a seat.',
      input: z.object({ flight: z.string() }),
      blocking: {
        feedback: { type: 'select', options: ['window', 'aisle'] },
        prompt: 'Window or aisle on {{flight}}?',
      },
    });
    const seatFlow = defineFlow({
      name: 'seat',
      intent: 'prepare',
      description: 'Choose a seat.',
      slots: [],
      tools: ['choose_seat'],
      skill: 'Ask the traveller for a seat.',
    });
    const model = createScriptedModel({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'seat', slots: {} } },
        {
          match: { phase: 'skill' },
          toolCalls: [{ toolName: 'choose_seat', input: { flight: 'TP1351' }, callId: 's1' }],
        },
        // The model asks again: it gets the answer it already has, no second question.
        {
          match: { phase: 'skill' },
          toolCalls: [{ toolName: 'choose_seat', input: { flight: 'TP1351' }, callId: 's2' }],
        },
        {
          match: { phase: 'skill' },
          respond: (call) => ({ text: results(call).includes('window') ? 'Window seat on TP1351.' : '??' }),
        },
      ],
    });
    const store = createSqliteStore({ path: join(dir, 'seat.db') });
    stores.push(store);
    const agent = createAgent({
      model,
      flows: [seatFlow],
      tools: [chooseSeat],
      store,
      clock,
      toolPipeline: { simulate: undefined },
    });
    const first = await agent.send({ threadId: 't', text: 'pick my seat' });
    expect(first.reply).toBe('Waiting for you: Window or aisle on TP1351?');
    const question = first.suspensions?.[0];
    expect(question).toMatchObject({
      kind: 'feedback',
      feedback: { type: 'select', options: ['window', 'aisle'] },
    });
    await expect(
      agent.resume({ threadId: 't', suspensionId: question?.id ?? '', feedback: 'middle' }),
    ).rejects.toMatchObject({
      reason: 'invalid_feedback',
    });
    const after = await agent.resume({ threadId: 't', suspensionId: question?.id ?? '', feedback: 'window' });
    expect(after.reply).toBe('Window seat on TP1351.');
    expect(after.status).toBe('completed');
    const journal = await store.listJournal('t');
    expect(journal.find((e) => e.callId === 's1')).toMatchObject({ status: 'succeeded' });
    const view = await agent.readThread('t');
    expect(view.messages.map((m) => m.text)).toContain('window');
  });
});
