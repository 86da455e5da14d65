import { describe, expect, it } from 'vitest';
import type { Observation, ObservationRow, StateStore } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { createObservationBus } from './observation-bus.js';
import { streamObservations } from './stream-observations.js';

/** Commits `types` to the thread in one transaction and publishes them afterwards, as the agent does. */
async function commit(
  store: StateStore,
  bus: ReturnType<typeof createObservationBus>,
  threadId: string,
  types: string[],
  options: { publish?: boolean } = {},
): Promise<Observation[]> {
  const current = await store.loadThread(threadId);
  const drafts = types.map((type) => ({
    specVersion: 1 as const,
    threadId,
    turnId: 'turn_1',
    type: type as Observation['type'],
    time: 1,
    data: { label: type },
  }));
  const result = await store.commit({
    threadId,
    expectedVersion: current?.version ?? 0,
    data: '{}',
    observations: drafts.map((d) => ({ type: d.type, data: JSON.stringify(d) })),
    now: 1,
  });
  const observations = drafts.map((d, i) => ({ ...d, id: result.observationIds[i] ?? 0 }));
  if (options.publish !== false) bus.publish(observations);
  return observations;
}

function progress(threadId: string, type: Observation['type']): Observation {
  return { specVersion: 1, id: 0, threadId, turnId: 'turn_1', type, time: 2, data: {} };
}

/** Pulls `count` observations from a stream. */
async function take(stream: AsyncGenerator<Observation>, count: number): Promise<Observation[]> {
  const seen: Observation[] = [];
  while (seen.length < count) {
    const next = await stream.next();
    if (next.done) break;
    seen.push(next.value);
  }
  return seen;
}

describe('streamObservations', () => {
  it('replays what was missed after an id, then follows live, each id once', async () => {
    const store = createMemoryStore();
    const bus = createObservationBus();
    const first = await commit(store, bus, 't', ['intent', 'flow-push', 'tool-call']);
    const controller = new AbortController();
    const stream = streamObservations({
      store,
      subscribe: bus.subscribe,
      threadId: 't',
      afterId: first[0]?.id ?? 0,
      signal: controller.signal,
    });
    const replayed = await take(stream, 2);
    expect(replayed.map((o) => o.type)).toEqual(['flow-push', 'tool-call']);
    const live = commit(store, bus, 't', ['tool-execution', 'final-response']);
    const later = await take(stream, 2);
    expect(later.map((o) => o.type)).toEqual(['tool-execution', 'final-response']);
    expect(later.map((o) => o.id)).toEqual((await live).map((o) => o.id));
    controller.abort();
    expect((await stream.next()).done).toBe(true);
  });

  it('neither duplicates nor skips an event committed between subscribing and replaying', async () => {
    const base = createMemoryStore();
    const bus = createObservationBus();
    await commit(base, bus, 't', ['intent']);
    // The first replay read is delayed until another commit and its publish have happened: the event
    // is then both in the store read and in the live signals.
    let interleaved: Promise<Observation[]> | undefined;
    const store: Pick<StateStore, 'readObservations'> = {
      async readObservations(threadId, options) {
        interleaved ??= commit(base, bus, 't', ['flow-push', 'tool-call']);
        await interleaved;
        return base.readObservations(threadId, options);
      },
    };
    const controller = new AbortController();
    const stream = streamObservations({
      store,
      subscribe: bus.subscribe,
      threadId: 't',
      signal: controller.signal,
    });
    const seen = await take(stream, 3);
    await commit(base, bus, 't', ['final-response']);
    seen.push(...(await take(stream, 1)));
    expect(seen.map((o) => o.type)).toEqual(['intent', 'flow-push', 'tool-call', 'final-response']);
    expect(new Set(seen.map((o) => o.id)).size).toBe(4);
    controller.abort();
  });

  it('reads an event that reached the store but whose signal was lost, when the next signal arrives', async () => {
    const store = createMemoryStore();
    const bus = createObservationBus();
    const controller = new AbortController();
    const stream = streamObservations({
      store,
      subscribe: bus.subscribe,
      threadId: 't',
      signal: controller.signal,
    });
    const pending = take(stream, 3);
    await commit(store, bus, 't', ['intent'], { publish: false });
    // A duplicate of a later signal and an out-of-order one (as a cross-process fan-out may deliver).
    const later = await commit(store, bus, 't', ['flow-push', 'final-response'], { publish: false });
    bus.publish([...later].reverse());
    bus.publish(later);
    const seen = await pending;
    expect(seen.map((o) => o.type)).toEqual(['intent', 'flow-push', 'final-response']);
    controller.abort();
  });

  it('passes live progress in publish order only when asked, and never for another thread', async () => {
    const store = createMemoryStore();
    const bus = createObservationBus();
    const controller = new AbortController();
    const withProgress = streamObservations({
      store,
      subscribe: bus.subscribe,
      threadId: 't',
      progress: true,
      signal: controller.signal,
    });
    const without = streamObservations({
      store,
      subscribe: bus.subscribe,
      threadId: 't',
      signal: controller.signal,
    });
    const a = take(withProgress, 3);
    const b = take(without, 1);
    await new Promise((resolve) => setImmediate(resolve));
    bus.publish([progress('other', 'model-stream-start'), progress('t', 'model-stream-start')]);
    bus.publish([progress('t', 'model-stream-end')]);
    await commit(store, bus, 't', ['final-response']);
    expect((await a).map((o) => [o.type, o.id === 0])).toEqual([
      ['model-stream-start', true],
      ['model-stream-end', true],
      ['final-response', false],
    ]);
    expect((await b).map((o) => o.type)).toEqual(['final-response']);
    controller.abort();
  });

  it('picks up commits made by another process by polling the store', async () => {
    const store = createMemoryStore();
    const bus = createObservationBus();
    const elsewhere = createObservationBus();
    const controller = new AbortController();
    const stream = streamObservations({
      store,
      subscribe: bus.subscribe,
      threadId: 't',
      pollIntervalMs: 5,
      signal: controller.signal,
    });
    const pending = take(stream, 2);
    await commit(store, elsewhere, 't', ['intent', 'final-response']);
    expect((await pending).map((o) => o.type)).toEqual(['intent', 'final-response']);
    controller.abort();
  });

  it('turns a stored row that does not parse into an error observation with its id', async () => {
    const rows: ObservationRow[] = [
      { id: 7, threadId: 't', type: 'intent', data: '{not json', createdAt: 5 },
    ];
    const store: Pick<StateStore, 'readObservations'> = {
      readObservations: async (_threadId, options) => rows.filter((r) => r.id > (options?.afterId ?? 0)),
    };
    const controller = new AbortController();
    const stream = streamObservations({
      store,
      subscribe: createObservationBus().subscribe,
      threadId: 't',
      signal: controller.signal,
    });
    const [decoded] = await take(stream, 1);
    expect(decoded).toMatchObject({ id: 7, type: 'error', data: { phase: 'decode' } });
    controller.abort();
  });
});
