/**
 * One turn at a time per thread, across processes and within one (DESIGN.md invariant 5): a call holds
 * the thread's lease in the store while it runs, renewed every third of its time to live; a lease lost
 * to another process aborts the work rather than letting two processes write one thread. The store's
 * lease is per agent (its owner id), so calls of the same agent are told apart in memory.
 */
import { ThreadBusyError } from '../errors/index.js';
import type { StateStore } from '../spec/index.js';
import type { Clock } from '../util/index.js';

export interface ThreadLeaseOptions {
  store: StateStore;
  /** This agent's owner id in the store's lease table. */
  owner: string;
  clock: Clock;
  ttlMs: number;
}

/** Runs `work` while holding the thread's lease; refuses with `ThreadBusyError` when another call holds it. */
export type HoldLease = <T>(
  threadId: string,
  outer: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
) => Promise<T>;

export function createThreadLease(options: ThreadLeaseOptions): HoldLease {
  const { store, owner, clock, ttlMs } = options;
  const leasedHere = new Set<string>();

  async function acquire(threadId: string): Promise<void> {
    if (leasedHere.has(threadId)) throw new ThreadBusyError({ threadId });
    leasedHere.add(threadId);
    let leased = false;
    try {
      leased = await store.acquireLease({ threadId, owner, ttlMs, now: clock.now() });
    } finally {
      if (!leased) leasedHere.delete(threadId);
    }
    if (!leased) throw new ThreadBusyError({ threadId });
  }

  return async (threadId, outer, work) => {
    await acquire(threadId);
    const lost = new AbortController();
    const renew = setInterval(
      () => {
        store
          .acquireLease({ threadId, owner, ttlMs, now: clock.now() })
          .then((held) => {
            if (!held) lost.abort(new ThreadBusyError({ threadId }));
          })
          .catch(() => undefined);
      },
      Math.max(1, Math.floor(ttlMs / 3)),
    );
    renew.unref?.();
    const signal = outer ? AbortSignal.any([outer, lost.signal]) : lost.signal;
    try {
      return await work(signal);
    } finally {
      clearInterval(renew);
      leasedHere.delete(threadId);
      await store.releaseLease({ threadId, owner });
    }
  };
}
