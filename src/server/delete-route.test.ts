/**
 * `DELETE /v1/threads/{id}` (docs/decisions/0076): the owner deletes a thread and nothing of it is left
 * in the store but its audit rows; another principal gets the 404 an unknown id gets (no probing), and
 * a thread whose turn runs answers 409 and is kept. The route is in the OpenAPI document.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ScheduleEntry } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { api, createWeatherAgent, startTestServer, storedThreadId } from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start() {
  const store = createMemoryStore();
  const { agent, gate } = createWeatherAgent({ store });
  const server = await startTestServer({ agent });
  running.push(server);
  return { server, store, gate, alice: api(server.url, 'alice'), bob: api(server.url, 'bob') };
}

describe('DELETE /v1/threads/{threadId}', () => {
  it('deletes the owner’s thread whole; another principal gets the answer of an unknown id', async () => {
    const { store, alice, bob } = await start();
    const sent = await alice('/v1/threads/trip/messages', {
      method: 'POST',
      json: { text: 'weather in Lisbon' },
    });
    expect(sent.status).toBe(201);
    const stored = storedThreadId('alice', 'trip');
    expect((await store.readHistory(stored)).length).toBeGreaterThan(0);

    const foreign = await bob('/v1/threads/trip', { method: 'DELETE' });
    const unknown = await bob('/v1/threads/never-used', { method: 'DELETE' });
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    const foreignBody = await foreign.json();
    const unknownBody = await unknown.json();
    expect(foreignBody).toEqual({ ...unknownBody, detail: "No thread 'trip'.", threadId: 'trip' });
    // Naming the thread by its stored id does not reach it either.
    expect((await bob(`/v1/threads/${stored}`, { method: 'DELETE' })).status).toBe(404);
    expect((await alice('/v1/threads/trip')).status).toBe(200);

    const deleted = await alice('/v1/threads/trip', { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await alice('/v1/threads/trip')).status).toBe(404);
    expect((await alice('/v1/threads/trip', { method: 'DELETE' })).status).toBe(404);
    expect((await (await alice('/v1/threads')).json()).threads).toEqual([]);

    // The scan: no row of the thread is left in the store.
    expect(await store.loadThread(stored)).toBeUndefined();
    expect(await store.readHistory(stored)).toEqual([]);
    expect(await store.readObservations(stored)).toEqual([]);
    expect(await store.listJournal(stored)).toEqual([]);
    expect(await store.listThreads()).toEqual([]);
  });

  it('answers 409 while the thread’s turn runs, and keeps the thread', async () => {
    const { alice, gate, store } = await start();
    await alice('/v1/threads/trip/messages', { method: 'POST', json: { text: 'weather in Oslo' } });
    gate?.hold();
    const turn = alice('/v1/threads/trip/messages', { method: 'POST', json: { text: 'weather in Rome' } });
    await gate?.waiting();
    const busy = await alice('/v1/threads/trip', { method: 'DELETE' });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toMatchObject({ code: 'thread_busy' });
    gate?.release();
    expect((await turn).status).toBe(200);
    expect(await store.loadThread(storedThreadId('alice', 'trip'))).toBeDefined();
    expect((await alice('/v1/threads/trip', { method: 'DELETE' })).status).toBe(204);
  });

  it('removes the thread’s schedules kept by a turn queue, and only those', async () => {
    const store = createMemoryStore();
    const { agent } = createWeatherAgent({ store });
    const schedules = new Map<string, ScheduleEntry>();
    const entry = (id: string, threadId: string): ScheduleEntry => ({
      specVersion: 1,
      id,
      threadId,
      text: 'weather in Oslo',
      everyMs: 60_000,
      nextRunAt: 1,
      runs: 0,
      createdAt: 1,
    });
    const queue = {
      send: agent.send,
      schedule: async () => entry('x', 'x'),
      unschedule: async (id: string) => schedules.delete(id),
      listSchedules: async () => [...schedules.values()],
    };
    const server = await startTestServer({ agent, server: { turns: queue } });
    running.push(server);
    const alice = api(server.url, 'alice');
    await alice('/v1/threads/trip/messages', { method: 'POST', json: { text: 'weather in Oslo' } });
    schedules.set('trip-daily', entry('trip-daily', storedThreadId('alice', 'trip')));
    schedules.set('other-daily', entry('other-daily', 'other'));
    expect((await alice('/v1/threads/trip', { method: 'DELETE' })).status).toBe(204);
    expect([...schedules.keys()]).toEqual(['other-daily']);
  });

  it('is in the OpenAPI document', async () => {
    const { server } = await start();
    const document = await (await fetch(`${server.url}/v1/openapi.json`)).json();
    const operation = document.paths['/v1/threads/{threadId}'].delete;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['204', '404', '409']));
  });
});
