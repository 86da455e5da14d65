import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, type TurnResult } from '../agent/index.js';
import { ThreadNotFoundError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import { api, createWeatherAgent, startTestServer } from './fixtures/server-fixture.js';
import type { ResumeOptions, RollbackOptions, ServerAgent } from './server-types.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** The weather agent with stand-ins for the durability layer's resume and rollback, recording calls. */
function agentWithDurability() {
  const { agent } = createWeatherAgent();
  const resumed: ResumeOptions[] = [];
  const rolledBack: RollbackOptions[] = [];
  const durable: ServerAgent = {
    ...agent,
    resume: async (options) => {
      resumed.push(options);
      return agent.send({ threadId: options.threadId, text: 'Oslo', principal: options.principal as string });
    },
    rollback: async (options) => {
      rolledBack.push(options);
      return {
        snapshotId: options.snapshotId ?? '',
        threadId: options.threadId,
        callId: 'c1',
        toolName: 'edit_files',
        status: 'rolled-back' as const,
        restored: [],
        removed: [],
      };
    },
  };
  return { agent: durable, resumed, rolledBack };
}

describe('threads belong to their principal', () => {
  it('principal B can neither read, stream, list, write to, resume, roll back, cancel nor audit A’s thread', async () => {
    const { agent, resumed, rolledBack } = agentWithDurability();
    const server = await startTestServer({ agent });
    running.push(server);
    const alice = api(server.url, 'alice');
    const bob = api(server.url, 'bob');
    const { threadId } = await (
      await alice('/v1/threads', { method: 'POST', json: { text: 'weather?' } })
    ).json();
    const before = await agent.store.loadThread(threadId);

    const attempts: Array<[string, RequestInit & { json?: unknown }]> = [
      [`/v1/threads/${threadId}`, {}],
      [`/v1/threads/${threadId}/events`, {}],
      [`/v1/threads/${threadId}/observations`, {}],
      [`/v1/threads/${threadId}/messages`, { method: 'POST', json: { text: 'Rome' } }],
      [
        `/v1/threads/${threadId}/suspensions/s1`,
        { method: 'POST', json: { feedback: { decision: 'approve' } } },
      ],
      [`/v1/threads/${threadId}/rollback`, { method: 'POST', json: { snapshotId: 'snap_1' } }],
      [`/v1/threads/${threadId}/cancel`, { method: 'POST' }],
      [`/v1/audit?threadId=${threadId}`, {}],
    ];
    const nobody = `${threadId}-does-not-exist`;
    for (const [path, init] of attempts) {
      const response = await bob(path, init);
      expect(response.status, path).toBe(404);
      const body = await response.json();
      expect(body, path).toMatchObject({ code: 'thread_not_found' });
      // Answered exactly as for a thread that does not exist, so ids cannot be probed.
      // (A message to an unknown id would start a thread of that id, so that one is left out.)
      if (path.includes('/messages')) continue;
      const unknown = await bob(path.replace(threadId, nobody), init);
      expect(unknown.status, path).toBe(404);
      expect((await unknown.json()).code, path).toBe('thread_not_found');
    }
    expect((await (await bob('/v1/threads')).json()).threads).toEqual([]);
    expect(resumed).toEqual([]);
    expect(rolledBack).toEqual([]);
    expect(await agent.store.loadThread(threadId)).toEqual(before);

    // Alice can do all of it.
    expect((await alice(`/v1/threads/${threadId}`)).status).toBe(200);
    const resume = await alice(`/v1/threads/${threadId}/suspensions/s1`, {
      method: 'POST',
      json: { feedback: { decision: 'approve' } },
    });
    expect(resume.status).toBe(200);
    expect(resumed.map((r) => [r.threadId, r.suspensionId, r.principal])).toEqual([
      [threadId, 's1', 'alice'],
    ]);
    expect(
      (await alice(`/v1/threads/${threadId}/rollback`, { method: 'POST', json: { snapshotId: 'snap_1' } }))
        .status,
    ).toBe(200);
    expect(rolledBack.map((r) => [r.snapshotId, r.principal])).toEqual([['snap_1', 'alice']]);
  });

  it('with a real approval waiting, B can neither read, stream, answer nor roll back A’s thread, over HTTP or through the agent', async () => {
    const { agent, done } = createPaymentAgent();
    const server = await startTestServer({ agent });
    running.push(server);
    const alice = api(server.url, 'alice');
    const bob = api(server.url, 'bob');
    const started = await alice('/v1/threads', { method: 'POST', json: { text: 'pay ana 10' } });
    expect(started.status).toBe(201);
    const first = (await started.json()) as TurnResult;
    expect(first.status).toBe('suspended');
    const question = first.suspensions?.[0];
    expect(question).toMatchObject({ kind: 'approval', toolName: 'transfer', status: 'open' });
    const { threadId } = first;
    const suspensionId = question?.id ?? '';
    const before = await agent.store.loadThread(threadId);
    const journalBefore = await agent.store.listJournal(threadId);
    const observationsBefore = await agent.store.readObservations(threadId);

    const attempts: Array<[string, RequestInit & { json?: unknown }]> = [
      [`/v1/threads/${threadId}`, {}],
      [`/v1/threads/${threadId}/events`, {}],
      [
        `/v1/threads/${threadId}/suspensions/${suspensionId}`,
        { method: 'POST', json: { feedback: { decision: 'approve' } } },
      ],
      [`/v1/threads/${threadId}/rollback`, { method: 'POST', json: { snapshotId: 'snap_1' } }],
    ];
    for (const [path, init] of attempts) {
      const response = await bob(path, init);
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toMatchObject({ code: 'thread_not_found', threadId });
    }

    // Through the agent, past any server check: refused before anything is touched.
    const error = await agent
      .resume({ threadId, suspensionId, feedback: { decision: 'approve' }, principal: 'bob' })
      .catch((e: unknown) => e);
    expect(ThreadNotFoundError.isInstance(error)).toBe(true);

    // Nothing changed: same version and state, the question still open, the transfer never ran.
    expect(await agent.store.loadThread(threadId)).toEqual(before);
    expect(await agent.store.listJournal(threadId)).toEqual(journalBefore);
    expect(await agent.store.readObservations(threadId)).toEqual(observationsBefore);
    const view = await agent.readThread(threadId);
    expect(view.version).toBe(before?.version);
    expect(view.suspensions.map((s) => [s.id, s.status])).toEqual([[suspensionId, 'open']]);
    expect(done).toEqual([]);

    // The owner reaches the rollback itself (no such snapshot), B only a thread that does not exist.
    const ownRollback = await alice(`/v1/threads/${threadId}/rollback`, {
      method: 'POST',
      json: { snapshotId: 'snap_1' },
    });
    expect(ownRollback.status).toBe(404);
    expect((await ownRollback.json()).code).toBe('file_snapshot_not_found');
    expect(await agent.store.loadThread(threadId)).toEqual(before);

    // Alice answers it, once, and the transfer runs.
    const answered = await alice(`/v1/threads/${threadId}/suspensions/${suspensionId}`, {
      method: 'POST',
      json: { feedback: { decision: 'approve' } },
    });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ status: 'completed', reply: 'Paid ana 10.' });
    expect(done).toEqual(['ana:10']);
    // The run is over: no question of it is left waiting.
    expect((await agent.readThread(threadId)).suspensions).toEqual([]);
  });

  it('the agent itself refuses a turn on another principal’s thread, so a race past the server check changes nothing', async () => {
    const { agent } = createWeatherAgent();
    await agent.send({ threadId: 'shared-id', text: 'weather?', principal: 'alice' });
    const before = await agent.store.loadThread('shared-id');
    const error = await agent
      .send({ threadId: 'shared-id', text: 'Oslo', principal: 'bob' })
      .catch((e: unknown) => e);
    expect(ThreadNotFoundError.isInstance(error)).toBe(true);
    expect(await agent.store.loadThread('shared-id')).toEqual(before);
    await agent.close();
  });
});

/** An agent whose one flow pays with a restricted tool that needs a person's yes for every call. */
function createPaymentAgent() {
  const done: string[] = [];
  const payBills = defineFlow({
    name: 'pay_bills',
    intent: 'transform',
    description: 'Pay the bills the user names.',
    slots: [],
    tools: ['transfer'],
    skill: 'Pay each bill with the transfer tool.',
  });
  const transfer = defineTool({
    name: 'transfer',
    description: 'Transfers money to a person.',
    input: z.object({ to: z.string(), amount: z.number().positive() }),
    capability: 'restricted',
    execute: ({ to, amount }) => {
      done.push(`${to}:${amount}`);
      return { ok: true, to, amount };
    },
  });
  const model = createScriptedModel({
    steps: [
      { match: { phase: 'predict' }, json: { flow: 'pay_bills', slots: {} }, repeat: true },
      {
        match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
        toolCalls: [{ toolName: 'transfer', input: { to: 'ana', amount: 10 }, callId: 'pay-ana' }],
      },
      { match: { phase: 'skill' }, text: 'Paid ana 10.' },
    ],
  });
  const agent = createAgent({
    model,
    flows: [payBills],
    tools: [transfer],
    store: createMemoryStore(),
    toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
  });
  return { agent, done };
}

describe('a stranger never holds the owner’s thread', () => {
  it('refuses another principal’s send and resume before taking the lease, so the owner is never kept waiting', async () => {
    const { agent } = createWeatherAgent();
    running.push(agent);
    await agent.send({ threadId: 'mine', text: 'weather?', principal: 'alice' });
    // A lease the stranger's calls would have taken leaves a trace: the owner's next acquire fails.
    const acquired: string[] = [];
    const store = agent.store;
    const acquire = store.acquireLease.bind(store);
    store.acquireLease = async (options) => {
      acquired.push(options.threadId);
      return acquire(options);
    };
    await expect(agent.send({ threadId: 'mine', text: 'Rome', principal: 'bob' })).rejects.toSatisfy(
      (error) => ThreadNotFoundError.isInstance(error),
    );
    await expect(
      agent.resume({
        threadId: 'mine',
        suspensionId: 's1',
        feedback: { decision: 'approve' },
        principal: 'bob',
      }),
    ).rejects.toSatisfy((error) => ThreadNotFoundError.isInstance(error));
    expect(acquired).toEqual([]);
    const owner = await agent.send({ threadId: 'mine', text: 'Oslo', principal: 'alice' });
    expect(owner.status).toBe('completed');
  });
});
