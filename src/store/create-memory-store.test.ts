import { describe, expect, it } from 'vitest';
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
});
