import { mkdirSync, mkdtempSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FileSnapshotStatus, FileSnapshotStore } from '../spec/index.js';
import { createDirectorySnapshotStore } from './create-directory-snapshot-store.js';
import { listFileSnapshots } from './list-file-snapshots.js';
import { pruneFileSnapshots, pruneWhenDue } from './prune-file-snapshots.js';
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
async function snapshotIn(callId: string, daysAgo: number, status: FileSnapshotStatus): Promise<string> {
  const record = await takeFileSnapshot({
    service: { root, store },
    threadId: 't1',
    turnId: 'turn1',
    callId,
    toolName: 'append_ledger',
    idempotencyKey: `t1:turn1:${callId}`,
    paths: ['ledger.csv'],
    now: 100 * day - daysAgo * day,
  });
  const at = 100 * day;
  if (status === 'committed' || status === 'failed' || status === 'kept')
    await store.append('t1', record.id, { type: 'status', status, at });
  if (status === 'rolling-back' || status === 'rolled-back')
    await store.append('t1', record.id, {
      type: 'rollback-start',
      at,
      restored: ['ledger.csv'],
      removed: [],
    });
  if (status === 'rolled-back')
    await store.append('t1', record.id, {
      type: 'rollback-done',
      at,
      report: {
        snapshotId: record.id,
        threadId: 't1',
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
