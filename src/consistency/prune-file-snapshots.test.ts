import { mkdirSync, mkdtempSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FileSnapshotStatus, FileSnapshotStore } from '../spec/index.js';
import { createDirectorySnapshotStore } from './create-directory-snapshot-store.js';
import { listFileSnapshots } from './list-file-snapshots.js';
import { pruneFileSnapshots, pruneWhenDue, sweepFileSnapshots } from './prune-file-snapshots.js';
import { takeFileSnapshot } from './take-file-snapshot.js';

let root: string;
let snapshots: string;
let store: FileSnapshotStore;
const day = 24 * 60 * 60 * 1000;

beforeEach(() => {
  const base = mkdtempSync(join(tmpdir(), 'flowstack-retention-'));
  root = join(base, 'work');
  snapshots = join(base, 'snapshots');
  mkdirSync(root);
  writeFileSync(join(root, 'ledger.csv'), 'date,amount\n');
  store = createDirectorySnapshotStore({ dir: snapshots });
});

/** A snapshot taken `daysAgo` before day 100, left in `status` (as the pipeline and a person leave them). */
async function snapshotIn(
  callId: string,
  daysAgo: number,
  status: FileSnapshotStatus,
  threadId = 't1',
): Promise<string> {
  const record = await takeFileSnapshot({
    service: { root, store },
    threadId,
    turnId: 'turn1',
    callId,
    toolName: 'append_ledger',
    idempotencyKey: `${threadId}:turn1:${callId}`,
    paths: ['ledger.csv'],
    now: 100 * day - daysAgo * day,
  });
  const at = 100 * day;
  if (status === 'committed' || status === 'failed' || status === 'kept')
    await store.append(threadId, record.id, { type: 'status', status, at });
  if (status === 'rolling-back' || status === 'rolled-back')
    await store.append(threadId, record.id, {
      type: 'rollback-start',
      at,
      restored: ['ledger.csv'],
      removed: [],
    });
  if (status === 'rolled-back')
    await store.append(threadId, record.id, {
      type: 'rollback-done',
      at,
      report: {
        snapshotId: record.id,
        threadId,
        callId,
        toolName: 'append_ledger',
        status: 'rolled-back',
        restored: ['ledger.csv'],
        removed: [],
      },
    });
  return record.id;
}

const listed = async () => (await listFileSnapshots(store, 't1')).map((s) => `${s.callId}:${s.status}`);

describe('file snapshot retention', () => {
  it('removes settled snapshots past the age limit and keeps every undecided one, however old', async () => {
    await snapshotIn('old-committed', 40, 'committed');
    await snapshotIn('old-kept', 35, 'kept');
    await snapshotIn('old-rolled-back', 31, 'rolled-back');
    await snapshotIn('old-failed', 60, 'failed');
    await snapshotIn('old-taken', 50, 'taken');
    await snapshotIn('old-rolling-back', 45, 'rolling-back');
    await snapshotIn('recent-committed', 2, 'committed');
    const removed = await pruneFileSnapshots({
      store,
      threadId: 't1',
      keep: { maxAgeMs: 30 * day },
      now: 100 * day,
    });
    expect(removed).toHaveLength(3);
    expect((await listed()).sort()).toEqual(
      [
        'old-failed:failed',
        'old-rolling-back:rolling-back',
        'old-taken:taken',
        'recent-committed:committed',
      ].sort(),
    );
  });

  it('keeps the newest settled snapshots up to the count, and never counts undecided ones against it', async () => {
    for (let n = 1; n <= 5; n++) await snapshotIn(`c${n}`, 10 - n, 'committed');
    await snapshotIn('waiting', 20, 'failed');
    await pruneFileSnapshots({ store, threadId: 't1', keep: { maxPerThread: 2 }, now: 100 * day });
    expect(await listed()).toEqual(['waiting:failed', 'c4:committed', 'c5:committed']);
    // Nothing more to remove: a second pass changes nothing.
    expect(
      await pruneFileSnapshots({ store, threadId: 't1', keep: { maxPerThread: 2 }, now: 100 * day }),
    ).toEqual([]);
  });

  it('a removal cut short by a crash leaves nothing listed, and the next removal clears what it left', async () => {
    const first = await snapshotIn('first', 5, 'committed');
    await snapshotIn('second', 4, 'committed');
    const threadDir = join(snapshots, readdirSync(snapshots)[0] as string);
    // What `remove` does first, with the process dying right after: the folder is out of the listed names.
    renameSync(join(threadDir, first), join(threadDir, `.removed-${first}-dead`));
    expect(await listed()).toEqual(['second:committed']);
    await pruneFileSnapshots({ store, threadId: 't1', keep: { maxPerThread: 1 }, now: 100 * day });
    await snapshotIn('third', 1, 'committed');
    await pruneFileSnapshots({ store, threadId: 't1', keep: { maxPerThread: 1 }, now: 100 * day });
    expect(await listed()).toEqual(['third:committed']);
    expect(readdirSync(threadDir).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('removes nothing from a store that cannot remove', async () => {
    await snapshotIn('c1', 40, 'committed');
    const { remove: _remove, ...keepsAll } = store;
    expect(
      await pruneFileSnapshots({ store: keepsAll, threadId: 't1', keep: { maxAgeMs: day }, now: 100 * day }),
    ).toEqual([]);
    expect(await listed()).toEqual(['c1:committed']);
  });

  it('checks a thread at most every checkEveryMs, the first time always', async () => {
    const keep = { maxPerThread: 1, checkEveryMs: 60_000 };
    await snapshotIn('c1', 3, 'committed');
    await snapshotIn('c2', 2, 'committed');
    expect(await pruneWhenDue({ store, threadId: 't1', keep, now: 100 * day })).toHaveLength(1);
    await snapshotIn('c3', 1, 'committed');
    expect(await pruneWhenDue({ store, threadId: 't1', keep, now: 100 * day + 59_999 })).toEqual([]);
    expect(await listed()).toEqual(['c2:committed', 'c3:committed']);
    expect(await pruneWhenDue({ store, threadId: 't1', keep, now: 100 * day + 60_000 })).toHaveLength(1);
    expect(await listed()).toEqual(['c3:committed']);
  });
});

describe('sweeping every thread', () => {
  const statuses = async (threadId: string) =>
    (await listFileSnapshots(store, threadId)).map((s) => `${s.callId}:${s.status}`);

  it('lists the threads that have snapshots, from their folders', async () => {
    expect(await store.listThreads?.()).toEqual([]);
    await snapshotIn('a', 1, 'committed', 'thread-b');
    await snapshotIn('b', 1, 'committed', 'thread-a');
    expect(await store.listThreads?.()).toEqual(['thread-a', 'thread-b']);
  });

  it('applies the retention to threads that take no new snapshots, keeping what waits for a person', async () => {
    await snapshotIn('old', 40, 'committed', 'quiet-1');
    await snapshotIn('recent', 2, 'committed', 'quiet-1');
    await snapshotIn('old', 45, 'kept', 'quiet-2');
    await snapshotIn('old-undecided', 60, 'failed', 'quiet-2');
    const sweep = await sweepFileSnapshots({ store, keep: { maxAgeMs: 30 * day }, now: 100 * day });
    expect(sweep).toEqual({ threads: 2, removed: 2, failed: [] });
    expect(await statuses('quiet-1')).toEqual(['recent:committed']);
    expect(await statuses('quiet-2')).toEqual(['old-undecided:failed']);
    // Nothing left to remove: a second sweep changes nothing.
    expect(await sweepFileSnapshots({ store, keep: { maxAgeMs: 30 * day }, now: 100 * day })).toEqual({
      threads: 2,
      removed: 0,
      failed: [],
    });
  });

  it('reports a thread it cannot sweep and goes on with the others', async () => {
    await snapshotIn('old', 40, 'committed', 'broken');
    await snapshotIn('old', 40, 'committed', 'fine');
    const refusing: FileSnapshotStore = {
      ...store,
      remove: (threadId, id) =>
        threadId === 'broken'
          ? Promise.reject(new Error('permission denied'))
          : (store.remove?.(threadId, id) ?? Promise.resolve()),
    };
    const sweep = await sweepFileSnapshots({ store: refusing, keep: { maxAgeMs: 30 * day }, now: 100 * day });
    expect(sweep).toEqual({
      threads: 2,
      removed: 1,
      failed: [{ threadId: 'broken', message: 'permission denied' }],
    });
    expect(await statuses('broken')).toEqual(['old:committed']);
    expect(await statuses('fine')).toEqual([]);
  });

  it('skips a folder whose records cannot be read, and a store that cannot list threads is left alone', async () => {
    const id = await snapshotIn('old', 40, 'committed', 'unreadable');
    const folder = readdirSync(snapshots).find((name) => name.startsWith('t-')) as string;
    writeFileSync(join(snapshots, folder, id, 'record.json'), '{ not json');
    expect(await store.listThreads?.()).toEqual([]);
    const { listThreads: _omitted, ...withoutListing } = store;
    await snapshotIn('old', 40, 'committed', 'other');
    expect(
      await sweepFileSnapshots({ store: withoutListing, keep: { maxAgeMs: 30 * day }, now: 100 * day }),
    ).toEqual({ threads: 0, removed: 0, failed: [] });
    expect(await statuses('other')).toEqual(['old:committed']);
  });
});
