import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors/index.js';
import { describeStoreConformance } from '../test/store-conformance.js';
import { createMemoryStore } from './create-memory-store.js';
import { StoreError } from './store-error.js';

describeStoreConformance('memory store conformance', () => createMemoryStore(), { describe, it });

describe('createMemoryStore', () => {
  it('rejects a malformed commit with a StoreError listing every problem', async () => {
    const store = createMemoryStore();
    const error = await store
      .commit({ threadId: '', expectedVersion: -1, data: 1 as unknown as string, now: Number.NaN })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ reason: 'invalid_commit', code: 'store_invalid_commit' });
    expect((error as StoreError).message.split('\n- ')).toHaveLength(5);
  });

  it('keeps two stores apart', async () => {
    const first = createMemoryStore();
    const second = createMemoryStore();
    await first.commit({ threadId: 't1', expectedVersion: 0, data: '{}', now: 1 });
    expect(await second.loadThread('t1')).toBeUndefined();
  });

  it('keeps at most maxThreads threads, evicting the least recently used one that holds no lease', async () => {
    const store = createMemoryStore({ maxThreads: 2 });
    const start = (threadId: string, now: number) =>
      store.commit({
        threadId,
        expectedVersion: 0,
        data: '{}',
        history: [{ kind: 'message', data: '{"text":"hi"}', turnId: 'turn_1' }],
        now,
      });
    await start('a', 1);
    await start('b', 2);
    await store.loadThread('a'); // a is now more recent than b
    await start('c', 3);
    expect(await store.loadThread('b')).toBeUndefined();
    expect(await store.readHistory('b')).toEqual([]);
    expect((await store.listThreads()).map((thread) => thread.threadId).sort()).toEqual(['a', 'c']);

    // A thread whose turn runs (it holds a lease) is passed over, even when it is the least recent.
    expect(await store.acquireLease({ threadId: 'a', owner: 'w1', ttlMs: 1_000, now: 4 })).toBe(true);
    await start('d', 5);
    expect(await store.loadThread('a')).toBeDefined();
    expect(await store.loadThread('c')).toBeUndefined();
  });

  it('grows past maxThreads rather than evict a busy thread', async () => {
    const store = createMemoryStore({ maxThreads: 1 });
    await store.commit({ threadId: 'a', expectedVersion: 0, data: '{}', now: 1 });
    await store.acquireLease({ threadId: 'a', owner: 'w1', ttlMs: 1_000, now: 1 });
    await store.commit({ threadId: 'b', expectedVersion: 0, data: '{}', now: 2 });
    expect((await store.listThreads()).length).toBe(2);
  });

  it('refuses a maxThreads below 1', () => {
    expect(() => createMemoryStore({ maxThreads: 0 })).toThrow(ConfigurationError);
  });
});
