/**
 * One turn at a time per thread, across processes and within one (DESIGN.md invariant 5): a call holds
 * the thread's lease in the store while it runs. One heartbeat per agent renews every lease the agent
 * holds, every third of their time to live; a lease lost to another process stops the work (its skill
 * runs end as on a user's stop) and refuses its commits, rather than letting two processes write one
 * thread. The store's lease is per agent (its owner id), so calls of the same agent are told apart in
 * memory. The stop is a `StopSource`, not an `AbortSignal`: see docs/decisions/0037.
 */
import { ThreadBusyError } from '../errors/index.js';
import type { Logger, StateStore } from '../spec/index.js';
import { type Clock, createStopController, type StopController, type StopSource } from '../util/index.js';

export interface ThreadLeaseOptions {
  store: StateStore;
  /** This agent's owner id in the store's lease table. */
  owner: string;
  clock: Clock;
  ttlMs: number;
  /** Told of a renewal that failed (warn) and of a lease lost to another process (warn). */
  logger?: Logger;
}

/** Runs `work` while holding the thread's lease; refuses with `ThreadBusyError` when another call holds it. */
export type HoldLease = <T>(threadId: string, work: (lease: StopSource) => Promise<T>) => Promise<T>;

export function createThreadLease(options: ThreadLeaseOptions): HoldLease {
  const { store, owner, clock, ttlMs, logger } = options;
  /** The leases this agent holds now, each with the stop of the work that holds it. */
  const held = new Map<string, StopController>();
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const renew = (threadId: string, lease: StopController) => {
    store
      .acquireLease({ threadId, owner, ttlMs, now: clock.now() })
      .then((still) => {
        if (still || held.get(threadId) !== lease) return;
        logger?.warn({ threadId }, "The thread's lease was lost to another process; its turn stops.");
        lease.stop(new ThreadBusyError({ threadId }));
      })
      // A store that cannot be reached now is asked again at the next beat; the lease runs out meanwhile.
      .catch((error: unknown) =>
        logger?.warn(
          { threadId, err: error },
          "The thread's lease could not be renewed; trying again at the next beat.",
        ),
      );
  };
  const beat = () => {
    for (const [threadId, lease] of held) renew(threadId, lease);
  };

  async function acquire(threadId: string): Promise<StopController> {
    if (held.has(threadId)) throw new ThreadBusyError({ threadId });
    const lease = createStopController();
    held.set(threadId, lease);
    let leased = false;
    try {
      leased = await store.acquireLease({ threadId, owner, ttlMs, now: clock.now() });
    } finally {
      if (!leased) held.delete(threadId);
    }
    if (!leased) throw new ThreadBusyError({ threadId });
    if (heartbeat === undefined) {
      heartbeat = setInterval(beat, Math.max(1, Math.floor(ttlMs / 3)));
      heartbeat.unref?.();
    }
    return lease;
  }

  function release(threadId: string): Promise<void> {
    held.delete(threadId);
    if (held.size === 0 && heartbeat !== undefined) {
      clearInterval(heartbeat);
      heartbeat = undefined;
    }
    return store.releaseLease({ threadId, owner });
  }

  return async (threadId, work) => {
    const lease = await acquire(threadId);
    try {
      return await work(lease);
    } finally {
      await release(threadId);
    }
  };
}
