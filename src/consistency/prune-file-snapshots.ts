/**
 * Retention of file snapshots: a thread's settled snapshots — the call succeeded (`committed`), a person
 * kept what it left (`kept`), or it was rolled back (`rolled-back`) — are removed once older than
 * `maxAgeMs`, and beyond the newest `maxPerThread` of them. A snapshot that still waits for a decision
 * (`taken`, `failed`), one being rolled back, and one that cannot be read are never removed: they are
 * what a person may still need, or must look at. Without `remove` on the store nothing is removed.
 * Listing a thread's snapshots reads each one (about 0.7 ms apiece on a local disk), so the pipeline
 * checks a thread at most every `checkEveryMs` (`pruneWhenDue`).
 */
import type { FileSnapshotStore } from '../spec/index.js';
import { listFileSnapshots } from './list-file-snapshots.js';

/** How long settled snapshots are kept; each bound is optional. */
export interface FileSnapshotRetention {
  /** Settled snapshots older than this are removed. */
  maxAgeMs?: number;
  /** At most this many settled snapshots per thread, the newest. */
  maxPerThread?: number;
  /** How often a thread is checked, at most (per process); 0 checks after every call. */
  checkEveryMs?: number;
}

const lastChecked = new WeakMap<FileSnapshotRetention, Map<string, number>>();

/**
 * `pruneFileSnapshots` when the thread was not checked in the last `keep.checkEveryMs` by this process
 * (the first call of a thread in a process always checks). Returns the removed ids.
 */
export async function pruneWhenDue(options: {
  store: FileSnapshotStore;
  threadId: string;
  keep: FileSnapshotRetention;
  now: number;
}): Promise<string[]> {
  const { keep, threadId, now } = options;
  let checked = lastChecked.get(keep);
  if (!checked) {
    checked = new Map();
    lastChecked.set(keep, checked);
  }
  const last = checked.get(threadId);
  if (last !== undefined && now - last < (keep.checkEveryMs ?? 0)) return [];
  checked.set(threadId, now);
  return pruneFileSnapshots(options);
}

const settled = new Set(['committed', 'kept', 'rolled-back']);

/** Removes what the retention allows and returns the removed ids, oldest first. */
export async function pruneFileSnapshots(options: {
  store: FileSnapshotStore;
  threadId: string;
  keep: FileSnapshotRetention;
  now: number;
}): Promise<string[]> {
  const { store, threadId, keep, now } = options;
  if (!store.remove) return [];
  const candidates = (await listFileSnapshots(store, threadId)).filter((s) => settled.has(s.status));
  const excess = keep.maxPerThread === undefined ? 0 : Math.max(0, candidates.length - keep.maxPerThread);
  const removed: string[] = [];
  candidates.forEach((snapshot, index) => {
    const tooOld = keep.maxAgeMs !== undefined && now - snapshot.createdAt > keep.maxAgeMs;
    if (index < excess || tooOld) removed.push(snapshot.id);
  });
  for (const id of removed) await store.remove(threadId, id);
  return removed;
}

/** What a sweep of every thread did. */
export interface FileSnapshotSweep {
  /** Threads with snapshots that were checked. */
  threads: number;
  /** Snapshots removed, over all threads. */
  removed: number;
  /** Threads whose check failed (an unreadable folder, a removal refused); the others went on. */
  failed: { threadId: string; message: string }[];
}

/**
 * `pruneFileSnapshots` for every thread that has snapshots, for threads that no longer take new ones
 * (the pipeline checks a thread only after a call that snapshots). One thread's failure is reported
 * and does not stop the others. A store without `listThreads` or `remove` is left as it is.
 */
export async function sweepFileSnapshots(options: {
  store: FileSnapshotStore;
  keep: FileSnapshotRetention;
  now: number;
}): Promise<FileSnapshotSweep> {
  const { store, keep, now } = options;
  const sweep: FileSnapshotSweep = { threads: 0, removed: 0, failed: [] };
  if (!store.listThreads || !store.remove) return sweep;
  for (const threadId of await store.listThreads()) {
    sweep.threads++;
    try {
      sweep.removed += (await pruneFileSnapshots({ store, threadId, keep, now })).length;
    } catch (error) {
      sweep.failed.push({ threadId, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return sweep;
}
