/**
 * A thread's observations from an id onwards, each exactly once, with no gaps: what was missed is
 * replayed from the store, and what happens next follows live. The store is the only source of stored
 * observations; a live event is only a signal to read the store after the last id delivered. So a
 * reconnecting client (`Last-Event-ID`), a commit made between subscribing and replaying, an event
 * published twice, or one that arrives out of order through a fan-out (Redis, another process) can
 * neither duplicate nor skip anything. Live progress (id 0) is passed through in publish order.
 */
import type { Observation, StateStore } from '../spec/index.js';
import type { SubscribeObservations } from './observation-bus.js';
import { replayObservations } from './replay-observations.js';

export interface StreamObservationsOptions {
  store: Pick<StateStore, 'readObservations'>;
  /** Live signals: `agent.subscribe`, a bus, or a cross-process fan-out. */
  subscribe: SubscribeObservations;
  threadId: string;
  /** The last id the client has; 0 (the default) replays the thread from its start. */
  afterId?: number;
  /** Also pass live progress (observations with id 0). */
  progress?: boolean;
  /**
   * Also re-read the store this often (ms): for commits made by processes whose events do not reach
   * `subscribe`. Off when left out.
   */
  pollIntervalMs?: number;
  /** Ends the stream. */
  signal?: AbortSignal;
}

/** Progress events held for a slow reader before the oldest are dropped; stored ones are never dropped. */
const maxQueuedProgress = 1_000;

type Signal = { kind: 'progress'; observation: Observation } | { kind: 'stored'; id: number };

/**
 * @example
 * for await (const o of streamObservations({ store, subscribe: agent.subscribe, threadId, afterId: 41 }))
 *   send(o); // 42, 43, … each once, then live
 */
export async function* streamObservations(options: StreamObservationsOptions): AsyncGenerator<Observation> {
  const { store, threadId, signal } = options;
  const queue: Signal[] = [];
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const unsubscribe = options.subscribe(
    (observation) => {
      if (observation.id === 0) {
        queue.push({ kind: 'progress', observation });
        if (queue.length > maxQueuedProgress) dropOldestProgress(queue);
      } else {
        const last = queue.at(-1);
        if (last?.kind === 'stored') last.id = Math.max(last.id, observation.id);
        else queue.push({ kind: 'stored', id: observation.id });
      }
      notify();
    },
    { threadId, progress: options.progress === true },
  );
  const timer =
    options.pollIntervalMs === undefined
      ? undefined
      : setInterval(() => {
          queue.push({ kind: 'stored', id: Number.POSITIVE_INFINITY });
          notify();
        }, options.pollIntervalMs);
  timer?.unref?.();
  signal?.addEventListener('abort', notify);
  let lastId = options.afterId ?? 0;
  try {
    for await (const observation of replayObservations(store, threadId, { afterId: lastId })) {
      if (signal?.aborted) return;
      lastId = observation.id;
      yield observation;
    }
    while (!signal?.aborted) {
      const next = queue.shift();
      if (!next) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      if (next.kind === 'progress') {
        yield next.observation;
        continue;
      }
      if (next.id <= lastId) continue;
      for await (const observation of replayObservations(store, threadId, { afterId: lastId })) {
        if (signal?.aborted) return;
        lastId = observation.id;
        yield observation;
      }
    }
  } finally {
    unsubscribe();
    if (timer) clearInterval(timer);
    signal?.removeEventListener('abort', notify);
  }
}

function dropOldestProgress(queue: Signal[]): void {
  const index = queue.findIndex((s) => s.kind === 'progress');
  if (index >= 0) queue.splice(index, 1);
}
