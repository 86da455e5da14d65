/**
 * The turns this server runs: at most one per thread at a time (a second is refused at once with
 * `ThreadBusyError`, without waiting for the store's lease), the principal of a thread whose first
 * turn has not been saved yet, cancellation, and a live `error` event (id 0) when a turn that runs in
 * the background fails — the client that was answered 202 learns of it on the thread's stream.
 */
import type { TurnResult } from '../agent/index.js';
import { ThreadBusyError } from '../errors/index.js';
import { createObservationBus, type SubscribeObservations } from '../observe/index.js';
import type { Observation } from '../spec/index.js';
import type { Clock } from '../util/index.js';
import { toProblem } from './problem-details.js';

export interface TurnRunner {
  /** Runs `task` as the thread's turn; its result or error is returned as well as published. */
  run(
    threadId: string,
    principal: string,
    task: (signal: AbortSignal) => Promise<TurnResult>,
  ): Promise<TurnResult>;
  isRunning(threadId: string): boolean;
  /** Remembers live progress of a running turn, so that a stream opened mid-turn can start with it. */
  noteProgress(observation: Observation): void;
  /** The latest live progress of the thread's running turn. */
  currentProgress(threadId: string): Observation | undefined;
  /** The principal of a thread this server is starting and has not saved yet. */
  ownerOf(threadId: string): string | undefined;
  /** Cancels the thread's running turn; false when none runs. */
  cancel(threadId: string): boolean;
  /** Live events of this server's turns (background failures). */
  subscribe: SubscribeObservations;
  /** Cancels every running turn and waits for them to settle. */
  close(): Promise<void>;
}

export function createTurnRunner(options: { clock: Clock }): TurnRunner {
  const running = new Map<
    string,
    { principal: string; controller: AbortController; done: Promise<unknown>; progress?: Observation }
  >();
  const bus = createObservationBus();
  return {
    run(threadId, principal, task) {
      if (running.has(threadId)) return Promise.reject(new ThreadBusyError({ threadId }));
      const controller = new AbortController();
      const done = Promise.resolve()
        .then(() => task(controller.signal))
        .catch((error: unknown) => {
          const details = toProblem(error);
          bus.publish([
            {
              specVersion: 1,
              id: 0,
              threadId,
              turnId: '',
              type: 'error',
              time: options.clock.now(),
              data: {
                phase: 'turn',
                code: details.code,
                status: details.status,
                message: details.detail ?? details.title,
              },
            },
          ]);
          throw error;
        })
        .finally(() => running.delete(threadId));
      running.set(threadId, { principal, controller, done: done.catch(() => undefined) });
      return done;
    },
    isRunning: (threadId) => running.has(threadId),
    noteProgress(observation) {
      const entry = running.get(observation.threadId);
      if (entry && observation.id === 0) entry.progress = observation;
    },
    currentProgress: (threadId) => running.get(threadId)?.progress,
    ownerOf: (threadId) => running.get(threadId)?.principal,
    cancel(threadId) {
      const entry = running.get(threadId);
      if (!entry) return false;
      entry.controller.abort(new Error('The turn was cancelled.'));
      return true;
    },
    subscribe: bus.subscribe,
    async close() {
      const entries = [...running.values()];
      for (const entry of entries) entry.controller.abort(new Error('The server is shutting down.'));
      await Promise.all(entries.map((e) => e.done));
    },
  };
}
