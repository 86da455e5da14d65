import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { Observation, ObservationType, StateStore } from '../../spec/index.js';
import { createMemoryStore } from '../../store/index.js';
import { describeWithService, serviceAvailable } from '../../test/require-service.js';
import { startTcpProxy } from './fixtures/tcp-proxy.js';
import { createRedisEventFanout, type RedisEventFanout, RedisUnavailableError } from './index.js';

const url = process.env.FLOWSTACK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const available = await serviceAvailable('redis', url);
let runs = 0;
/** A channel of this test's own, so that parallel test files never hear each other. */
const newPrefix = () => `flowstack-test:fanout:${process.pid}:${Date.now().toString(36)}:${++runs}`;

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});
function track<T extends { close(): Promise<void> }>(value: T): T {
  open.push(value);
  return value;
}

function observation(threadId: string, id: number, type: ObservationType = 'thoughts'): Observation {
  return { specVersion: 1, id, threadId, turnId: 'turn-1', type, time: 1_700_000_000_000 + id, data: { id } };
}

/** Commits observations to the store as a turn would, and returns them with their ids. */
async function commitObservations(
  store: StateStore,
  threadId: string,
  count: number,
): Promise<Observation[]> {
  const head = await store.loadThread(threadId);
  const drafts = Array.from({ length: count }, (_, i) => ({
    specVersion: 1 as const,
    threadId,
    turnId: 'turn-1',
    type: 'thoughts' as const,
    time: 1_700_000_000_000 + i,
    data: { n: i },
  }));
  const result = await store.commit({
    threadId,
    expectedVersion: head?.version ?? 0,
    data: '{}',
    observations: drafts.map((d) => ({ type: d.type, data: JSON.stringify(d) })),
    now: 1_700_000_000_000,
  });
  return drafts.map((d, i) => ({ ...d, id: result.observationIds[i] as number }));
}

/** Resolves with the first `count` observations `subscribe` delivers. */
function collect(
  fanout: RedisEventFanout,
  count: number,
  options: Parameters<RedisEventFanout['subscribe']>[1],
) {
  const received: Observation[] = [];
  return new Promise<Observation[]>((resolve) => {
    const stop = fanout.subscribe((o) => {
      received.push(o);
      if (received.length === count) {
        stop();
        resolve(received);
      }
    }, options);
  });
}

describeWithService({ kind: 'redis', url, available, describe }, 'createRedisEventFanout', () => {
  it("delivers another process's observations by thread, type and progress, and never its own back", async () => {
    const prefix = newPrefix();
    const worker = track(createRedisEventFanout({ url, prefix }));
    const api = track(createRedisEventFanout({ url, prefix }));
    const ownEcho: Observation[] = [];
    worker.subscribe((o) => ownEcho.push(o), { progress: true });
    const threadA = collect(api, 3, { threadId: 'a', progress: true });
    const toolResults = collect(api, 1, { types: ['tool-execution'] });
    const everything = collect(api, 4, {});
    await Promise.all([api.ready(), worker.ready()]);

    await worker.publish([observation('a', 1), observation('b', 2, 'tool-execution'), observation('a', 0)]);
    await worker.publish([observation('a', 3)]);
    await worker.publish([observation('c', 4, 'final-response')]);

    expect((await threadA).map((o) => [o.threadId, o.id])).toEqual([
      ['a', 1],
      ['a', 0],
      ['a', 3],
    ]);
    expect((await toolResults).map((o) => o.id)).toEqual([2]);
    // Without `progress`, the live event (id 0) is left out.
    expect((await everything).map((o) => o.id)).toEqual([1, 2, 3, 4]);
    // The worker heard the api's channel too, but skipped its own messages; a message from api reaches it.
    await api.publish([observation('z', 9)]);
    await new Promise<void>((resolve) => {
      const stop = worker.subscribe(() => {
        stop();
        resolve();
      });
    });
    expect(ownEcho.map((o) => o.id)).toEqual([9]);
  });

  it('relays what an agent-like source delivers, one message per tick, in order', async () => {
    const prefix = newPrefix();
    const worker = track(createRedisEventFanout({ url, prefix }));
    const api = track(createRedisEventFanout({ url, prefix }));
    const raw = new Redis(url);
    track({ close: async () => raw.disconnect() });
    let messages = 0;
    let threeMessages: (() => void) | undefined;
    const heardThree = new Promise<void>((resolve) => {
      threeMessages = resolve;
    });
    raw.on('message', () => {
      messages += 1;
      if (messages === 3) threeMessages?.();
    });
    await raw.subscribe(`${prefix}:events`);
    const received = collect(api, 6, { threadId: 't', progress: true });
    await api.ready();

    // Any SubscribeObservations works as a source; here a local bus stands in for `agent.subscribe`.
    const { createObservationBus } = await import('../../observe/index.js');
    const bus = createObservationBus();
    const stopStored = worker.relay(bus.subscribe);
    bus.publish([observation('t', 1), observation('t', 0), observation('t', 2)]); // progress not relayed
    await Promise.resolve();
    bus.publish([observation('t', 3), observation('t', 4)]);
    const stopProgress = worker.relay(bus.subscribe, { progress: true });
    stopStored();
    bus.publish([observation('t', 0, 'model-stream-start'), observation('t', 5)]);
    expect((await received).map((o) => o.id)).toEqual([1, 2, 3, 4, 0, 5]);
    stopProgress();
    await heardThree;
    // A last message proves nothing more was sent in between: it comes fourth.
    const fourth = new Promise<void>((resolve) => raw.once('message', () => resolve()));
    await worker.publish([observation('t', 6)]);
    await fourth;
    expect(messages).toBe(4);
  });

  it('skips a message that is not one of its own kind, and says so', async () => {
    const prefix = newPrefix();
    const errors: unknown[] = [];
    const api = track(createRedisEventFanout({ url, prefix, onError: (e) => errors.push(e) }));
    const worker = track(createRedisEventFanout({ url, prefix }));
    const received = collect(api, 1, {});
    await api.ready();
    const raw = new Redis(url);
    await raw.publish(`${prefix}:events`, 'not json');
    await raw.publish(`${prefix}:events`, JSON.stringify({ v: 2, origin: 'x', observations: [] }));
    raw.disconnect();
    await worker.publish([observation('t', 7)]);
    expect((await received).map((o) => o.id)).toEqual([7]);
    expect(errors).toHaveLength(2);
  });

  it('after a Redis outage, wakes each listened thread with its newest stored observation', async () => {
    const prefix = newPrefix();
    const store = createMemoryStore();
    const proxy = await startTcpProxy(url);
    track({ close: () => proxy.stop() });
    const api = track(createRedisEventFanout({ url: proxy.url, prefix, store }));
    const worker = track(createRedisEventFanout({ url, prefix }));
    const received: Observation[] = [];
    let wake: (() => void) | undefined;
    api.subscribe(
      (o) => {
        received.push(o);
        wake?.();
      },
      { threadId: 't' },
    );
    await api.ready();
    const first = (await commitObservations(store, 't', 1))[0] as Observation;
    const arrived = new Promise<void>((resolve) => {
      wake = resolve;
    });
    await worker.publish([first]);
    await arrived;

    await proxy.stop();
    // Committed and published while the api process cannot hear: the message is lost.
    const missed = await commitObservations(store, 't', 3);
    await worker.publish(missed);
    const caughtUp = new Promise<void>((resolve) => {
      wake = resolve;
    });
    await proxy.start();
    await caughtUp;
    expect(received.map((o) => o.id)).toEqual([first?.id, missed.at(-1)?.id]);
    expect(received[1]?.data).toEqual({ n: 2 });
  });
});

describe('createRedisEventFanout without a server', () => {
  it('ready() rejects with RedisUnavailableError, and publish too', async () => {
    const fanout = createRedisEventFanout({ url: 'redis://127.0.0.1:1', commandTimeoutMs: 300 });
    const error = await fanout.ready().catch((caught: unknown) => caught);
    expect(RedisUnavailableError.isInstance(error)).toBe(true);
    await expect(fanout.publish([observation('t', 1)])).rejects.toThrow(/127\.0\.0\.1:1/);
    await fanout.close();
  });
});
