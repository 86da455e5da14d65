import { afterEach, describe, expect, it } from 'vitest';
import type { TurnResult } from '../agent/index.js';
import { ThreadNotFoundError } from '../errors/index.js';
import { api, createWeatherAgent, startTestServer } from './fixtures/server-fixture.js';
import { createTransferAgent } from './fixtures/transfer-agent.js';
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
      const unknown = await bob(path.replace(threadId, nobody), init);
      expect(unknown.status, path).toBe(404);
      expect((await unknown.json()).code, path).toBe('thread_not_found');
    }
    expect((await (await bob('/v1/threads')).json()).threads).toEqual([]);
    // A message to the same id starts Bob's own thread (ADR 0066), and leaves Alice's alone.
    const own = await bob(`/v1/threads/${threadId}/messages`, {
      method: 'POST',
      json: { text: 'weather in Rome' },
    });
    expect(own.status).toBe(201);
    expect((await own.json()).threadId).not.toBe(threadId);
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
    const { agent, paid } = createTransferAgent();
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
    expect(paid).toEqual([]);

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
    expect(paid).toEqual(['ana:10']);
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

describe('client-chosen thread ids are per principal (issue 31, item 12)', () => {
  it('answers another principal’s id exactly as an unused one, and lets nobody take an id from another', async () => {
    const { agent } = createWeatherAgent();
    const server = await startTestServer({ agent });
    running.push(server);
    const alice = api(server.url, 'alice');
    const bob = api(server.url, 'bob');
    const message = (text: string) => ({ method: 'POST', json: { text } });
    // Bob gets to the id first.
    const squat = await bob('/v1/threads/project-x/messages', message('weather in Rome'));
    expect(squat.status).toBe(201);
    const bobs = await squat.json();

    // For Alice, Bob's id and an id nobody uses answer alike: 404 to read, 201 to start her own thread.
    const shape = async (response: Response) => ({ status: response.status, body: await response.json() });
    const readTaken = await shape(await alice('/v1/threads/project-x'));
    const readUnused = await shape(await alice('/v1/threads/project-y'));
    expect(readTaken.status).toBe(404);
    expect(readUnused.status).toBe(404);
    expect(readTaken.body.detail.replace('project-x', 'ID')).toBe(
      readUnused.body.detail.replace('project-y', 'ID'),
    );
    for (const path of ['events', 'observations']) {
      expect((await alice(`/v1/threads/project-x/${path}`)).status).toBe(404);
      expect((await alice(`/v1/threads/project-y/${path}`)).status).toBe(404);
    }
    const startTaken = await alice('/v1/threads/project-x/messages', message('weather in Oslo'));
    const startUnused = await alice('/v1/threads/project-y/messages', message('weather in Oslo'));
    expect([startTaken.status, startUnused.status]).toEqual([201, 201]);
    const [taken, unused] = [await startTaken.json(), await startUnused.json()];
    // The ids she gets back have the same form: nothing says that project-x was used by someone else.
    const form = (id: string) => id.replace(/^project-[xy]/, 'ID');
    expect(form(taken.threadId)).toBe(form(unused.threadId));
    expect(startTaken.headers.get('location')).toBe(`/v1/threads/${taken.threadId}`);

    // Alice keeps using the id she chose; so does Bob; neither sees the other's messages.
    const again = await (await alice('/v1/threads/project-x/messages', message('weather in Paris'))).json();
    expect(again.threadId).toBe(taken.threadId);
    const mine = await (await alice('/v1/threads/project-x')).json();
    expect(
      mine.messages.filter((m: { role: string }) => m.role === 'user').map((m: { text: string }) => m.text),
    ).toEqual(['weather in Oslo', 'weather in Paris']);
    const theirs = await (await bob('/v1/threads/project-x')).json();
    expect(theirs.threadId).toBe(bobs.threadId);
    expect(
      theirs.messages.filter((m: { role: string }) => m.role === 'user').map((m: { text: string }) => m.text),
    ).toEqual(['weather in Rome']);
    // The full id names the thread too, but only for its owner; another namespace is never reachable.
    expect((await alice(`/v1/threads/${taken.threadId}`)).status).toBe(200);
    expect((await bob(`/v1/threads/${taken.threadId}`)).status).toBe(404);
    expect((await bob(`/v1/threads/${taken.threadId}/messages`, message('weather in Oslo'))).status).toBe(
      404,
    );
    expect(
      (await bob(`/v1/threads/project-z~${'A'.repeat(12)}/messages`, message('weather in Oslo'))).status,
    ).toBe(404);
    expect((await (await alice('/v1/threads')).json()).threads).toHaveLength(2);
  });
});

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
