import { afterEach, describe, expect, it } from 'vitest';
import { ThreadNotFoundError } from '../errors/index.js';
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
