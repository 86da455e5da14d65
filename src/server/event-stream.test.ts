import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { createTripDomain } from '../agent/fixtures/plan-domain.js';
import { createTripPlanModel } from '../agent/fixtures/trip-plan-model.js';
import { createAgent } from '../agent/index.js';
import { replayObservations } from '../observe/index.js';
import type { Observation } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import {
  api,
  createGate,
  createWeatherAgent,
  readServerSentEvents,
  startTestServer,
  storedThreadId,
} from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

describe('the event stream', () => {
  it('reconnected with Last-Event-ID mid-turn, delivers every stored event exactly once', async () => {
    const server = await startTestServer();
    running.push(server);
    const gate = server.gate as NonNullable<typeof server.gate>;
    const alice = api(server.url, 'alice');
    const threadId = 't-reconnect';
    const received: Observation[] = [];
    const progress: Observation[] = [];
    const send = (text: string) =>
      alice(`/v1/threads/${threadId}/messages`, {
        method: 'POST',
        json: { text },
        headers: { prefer: 'respond-async' },
      });

    // First connection: read three events of the first turn, then drop the connection.
    const first = new AbortController();
    gate.hold();
    expect((await send('weather in Oslo')).status).toBe(202);
    const stream1 = await alice(`/v1/threads/${threadId}/events`, { signal: first.signal });
    await gate.waiting();
    gate.release();
    for await (const event of readServerSentEvents(stream1.body as ReadableStream<Uint8Array>)) {
      const observation = JSON.parse(event.data) as Observation;
      if (event.event === 'progress') continue;
      expect(event.id).toBe(String(observation.id));
      received.push(observation);
      if (received.length === 3) break;
    }
    first.abort();

    // While disconnected: a second turn completes, and a third is held in the middle of a model call.
    const second = await alice(`/v1/threads/${threadId}/messages`, {
      method: 'POST',
      json: { text: 'weather in Rome' },
    });
    expect(second.status).toBe(200);
    gate.hold();
    expect((await send('weather in Paris')).status).toBe(202);
    await gate.waiting();

    // Reconnect after the last id seen; the rest arrives from the store, then the third turn live.
    const lastSeen = received.at(-1)?.id as number;
    const reconnect = new AbortController();
    const stream2 = await alice(`/v1/threads/${threadId}/events`, {
      headers: { 'last-event-id': String(lastSeen) },
      signal: reconnect.signal,
    });
    let finals = 0;
    const iterator = readServerSentEvents(stream2.body as ReadableStream<Uint8Array>);
    for await (const event of iterator) {
      const observation = JSON.parse(event.data) as Observation;
      if (event.event === 'progress') {
        progress.push(observation);
        continue;
      }
      received.push(observation);
      if (observation.type === 'final-response') finals += 1;
      // The first turn's and the second turn's answers were replayed: let the third turn go on.
      if (finals === 2 && observation.type === 'final-response') gate.release();
      if (finals === 3) break;
    }
    reconnect.abort();

    const stored: Observation[] = [];
    for await (const o of replayObservations(server.agent.store, storedThreadId('alice', threadId)))
      stored.push(o);
    expect(received.map((o) => o.id)).toEqual(stored.map((o) => o.id));
    expect(new Set(received.map((o) => o.id)).size).toBe(received.length);
    expect(received.filter((o) => o.type === 'final-response').map((o) => o.data.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    // Live progress of the third turn came through the reconnected stream, and is never stored.
    expect(progress.some((o) => o.type === 'model-stream-start')).toBe(true);
    expect(progress.every((o) => o.id === 0)).toBe(true);
  });

  it('reconnected with Last-Event-ID in the middle of a plan, delivers every plan and item event exactly once', async () => {
    const { agent, gate } = createTripPlanAgent();
    const server = await startTestServer({ agent });
    running.push(server);
    const alice = api(server.url, 'alice');
    const threadId = 't-plan-reconnect';

    // The first skill call of the second item (the weather) waits at the gate.
    gate.hold();
    const accepted = await alice(`/v1/threads/${threadId}/messages`, {
      method: 'POST',
      json: { text: 'Plan a weekend in Lisbon for me' },
      headers: { prefer: 'respond-async' },
    });
    expect(accepted.status).toBe(202);
    await gate.waiting();

    // First connection: read up to the plan and the first item event after it, then drop it.
    const received: Observation[] = [];
    const first = new AbortController();
    const stream1 = await alice(`/v1/threads/${threadId}/events`, { signal: first.signal });
    for await (const event of readServerSentEvents(stream1.body as ReadableStream<Uint8Array>)) {
      if (event.event === 'progress') continue;
      const observation = JSON.parse(event.data) as Observation;
      expect(event.id).toBe(String(observation.id));
      received.push(observation);
      if (observation.type === 'item-status-change' && received.some((o) => o.type === 'plan')) break;
    }
    first.abort();
    const storedWhileHeld: Observation[] = [];
    for await (const o of replayObservations(server.agent.store, storedThreadId('alice', threadId)))
      storedWhileHeld.push(o);
    // The client left with stored events unread, and the plan waits in its second item.
    expect(storedWhileHeld.length).toBeGreaterThan(received.length);
    const plan = storedWhileHeld.find((o) => o.type === 'plan');
    const second = (plan?.data.items as Array<{ id: string }> | undefined)?.[1]?.id;
    expect(second).toBeDefined();
    expect(storedWhileHeld.filter((o) => o.type === 'item-status-change').at(-1)?.data).toMatchObject({
      itemId: second,
      to: 'in_progress',
    });
    expect(storedWhileHeld.some((o) => o.type === 'final-response')).toBe(false);

    // Reconnect after the last id seen: the missed events come from the store, the rest live.
    const reconnect = new AbortController();
    const stream2 = await alice(`/v1/threads/${threadId}/events`, {
      headers: { 'last-event-id': String(received.at(-1)?.id) },
      signal: reconnect.signal,
    });
    let released = false;
    for await (const event of readServerSentEvents(stream2.body as ReadableStream<Uint8Array>)) {
      if (event.event === 'progress') continue;
      const observation = JSON.parse(event.data) as Observation;
      expect(event.id).toBe(String(observation.id));
      received.push(observation);
      // Everything stored while the client was away has been replayed: let the plan go on.
      if (!released && observation.id === storedWhileHeld.at(-1)?.id) {
        released = true;
        gate.release();
      }
      if (observation.type === 'final-response') break;
    }
    reconnect.abort();
    expect(released).toBe(true);

    const stored: Observation[] = [];
    for await (const o of replayObservations(server.agent.store, storedThreadId('alice', threadId)))
      stored.push(o);
    const ids = received.map((o) => o.id);
    expect(ids).toEqual(stored.map((o) => o.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const count = (type: string) => received.filter((o) => o.type === type).length;
    expect(count('plan')).toBe(1);
    expect(count('final-response')).toBe(1);
    // Every plan-update and item-status-change of the store, each exactly once.
    for (const type of ['plan-update', 'item-status-change']) {
      const storedOfType = stored.filter((o) => o.type === type).map((o) => o.id);
      expect(
        received.filter((o) => o.type === type).map((o) => o.id),
        type,
      ).toEqual(storedOfType);
    }
    expect(count('plan-update')).toBeGreaterThan(0);
    // Each of the five items (four planned, one added by replanning) went through its statuses once.
    const statuses = received
      .filter((o) => o.type === 'item-status-change')
      .map((o) => `${String(o.data.itemId)}:${String(o.data.to)}`);
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(statuses.filter((s) => s.endsWith(':completed'))).toHaveLength(5);
  });

  it('refuses a Last-Event-ID that is not an event id', async () => {
    const server = await startTestServer();
    running.push(server);
    const alice = api(server.url, 'alice');
    await alice('/v1/threads/t-x/messages', { method: 'POST', json: { text: 'weather in Oslo' } });
    const response = await alice('/v1/threads/t-x/events', { headers: { 'last-event-id': 'abc' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_last_event_id' });
  });

  it('tells a client answered 202 when its turn fails, on the thread’s stream', async () => {
    const server = await startTestServer();
    running.push(server);
    const alice = api(server.url, 'alice');
    await alice('/v1/threads/t-corrupt/messages', { method: 'POST', json: { text: 'weather?' } });
    const stored = await server.agent.store.loadThread('t-corrupt');
    await server.agent.store.commit({
      threadId: 't-corrupt',
      expectedVersion: stored?.version ?? 0,
      principal: 'alice',
      data: '{"schemaVersion": 1, "stack": [',
      now: 1,
    });
    const controller = new AbortController();
    const stream = await alice('/v1/threads/t-corrupt/events?after=999999', { signal: controller.signal });
    const accepted = await alice('/v1/threads/t-corrupt/messages', {
      method: 'POST',
      json: { text: 'Oslo' },
      headers: { prefer: 'respond-async' },
    });
    expect(accepted.status).toBe(202);
    for await (const event of readServerSentEvents(stream.body as ReadableStream<Uint8Array>)) {
      const observation = JSON.parse(event.data) as Observation;
      expect(event.event).toBe('progress');
      expect(observation).toMatchObject({
        type: 'error',
        data: { phase: 'turn', code: 'snapshot_corrupt', status: 500 },
      });
      break;
    }
    controller.abort();
  });

  it('delivers events committed by another process through a fan-out given as `subscribe`', async () => {
    // Two agents on one store stand for two processes; the second one's events reach this server only
    // through the fan-out.
    const store = createMemoryStore();
    const here = createWeatherAgent({ store });
    const elsewhere = createWeatherAgent({ store });
    const server = await startTestServer({
      agent: here.agent,
      server: { subscribe: elsewhere.agent.subscribe },
    });
    running.push(server);
    const alice = api(server.url, 'alice');
    await elsewhere.agent.send({ threadId: 't-far', text: 'weather?', principal: 'alice' });
    const controller = new AbortController();
    const stream = await alice('/v1/threads/t-far/events', { signal: controller.signal });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of readServerSentEvents(stream.body as ReadableStream<Uint8Array>)) {
        const observation = JSON.parse(event.data) as Observation;
        if (event.event !== 'observation') continue;
        seen.push(`${observation.type}:${String(observation.data.status ?? '')}`);
        if (observation.type === 'final-response' && observation.data.status === 'completed') return;
      }
    })();
    await elsewhere.agent.send({ threadId: 't-far', text: 'Oslo', principal: 'alice' });
    await reading;
    controller.abort();
    await elsewhere.agent.close();
    expect(seen.filter((s) => s.startsWith('final-response'))).toEqual([
      'final-response:needs-input',
      'final-response:completed',
    ]);
  });
});

/**
 * A planning agent on the trip domain: the first skill call of the weather item (the plan's second)
 * passes through a gate the test holds, and the replanning check after that item adds one (so there is
 * a `plan-update`).
 */
function createTripPlanAgent() {
  const trip = createTripPlanModel();
  const gate = createGate(trip);
  const replan = createScriptedModel({
    steps: [
      {
        match: { phase: 'replan' },
        json: {
          decision: 'expand',
          items: [{ id: 'packing', description: 'Write a packing list' }],
        },
      },
    ],
  });
  const labels = (options: LanguageModelV3CallOptions) =>
    (options.providerOptions?.flowstack ?? {}) as { phase?: string; flow?: string };
  let replans = 0;
  let gated = false;
  const pick = (options: LanguageModelV3CallOptions): LanguageModelV3 => {
    const { phase, flow } = labels(options);
    if (phase === 'replan' && ++replans === 2) return replan;
    if (phase === 'skill' && flow === 'check_weather' && !gated) {
      gated = true;
      return gate.model;
    }
    return trip;
  };
  const model: LanguageModelV3 = {
    ...trip,
    doGenerate: (options) => pick(options).doGenerate(options),
    doStream: (options) => pick(options).doStream(options),
  };
  const domain = createTripDomain();
  const agent = createAgent({
    model,
    flows: domain.flows,
    tools: domain.tools,
    store: createMemoryStore(),
    plan: { treeSearch: 'off' },
  });
  return { agent, gate };
}
