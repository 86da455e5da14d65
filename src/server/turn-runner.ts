/**
 * The turns this server runs: the principal of a thread whose first turn has not been saved yet,
 * cancellation, and a live `error` event (id 0) when a turn that runs in the background fails — the
 * client that was answered 202 learns of it on the thread's stream. In this process (`queued` off), at
 * most one turn per thread at a time: a second is refused at once with `ThreadBusyError`, without
 * waiting for the store's lease — except a stop message, which the agent hands to the running turn
 * (docs/decisions/0081). Behind a turn queue (`queued`), a message that arrives while the
 * thread's turn runs is sent on as well: the queue numbers each thread's turns and its workers run them
 * one after another, so the second message waits its turn instead of being refused (docs/decisions/0028).
 */
import type { TurnResult } from '../agent/index.js';
import { ThreadBusyError } from '../errors/index.js';
import { createObservationBus, type SubscribeObservations } from '../observe/index.js';
import type { Observation } from '../spec/index.js';
import type { Clock } from '../util/index.js';
import { toProblem } from './problem-details.js';

export interface TurnRunner {
  /**
   * Runs `task` as the thread's turn; its result or error is returned as well as published. With
   * `stop`, a message that stops the thread's running turn: it is not refused while that turn runs (the
   * agent raises the turn's stop flag and answers with its result), and it is no turn of its own.
   */
  run(
    threadId: string,
    principal: string,
    task: (signal: AbortSignal) => Promise<TurnResult>,
    options?: { stop?: boolean },
  ): Promise<TurnResult>;
  isRunning(threadId: string): boolean;
  /** Remembers live progress of a running turn, so that a stream opened mid-turn can start with it. */
  noteProgress(observation: Observation): void;
  /** The latest live progress of the thread's running turn. */
  currentProgress(threadId: string): Observation | undefined;
  /** The principal of a thread this server is starting and has not saved yet. */
  ownerOf(threadId: string): string | undefined;
  /** Cancels the thread's running turn (and, behind a queue, those sent after it); false when none runs. */
  cancel(threadId: string): boolean;
  /** Live events of this server's turns (background failures). */
  subscribe: SubscribeObservations;
  /** Cancels every running turn and waits for them to settle. */
  close(): Promise<void>;
}

interface RunningTurn {
  principal: string;
  controller: AbortController;
  done: Promise<unknown>;
  /** The turn's own answer (or error). */
  result: Promise<TurnResult>;
  progress?: Observation;
}

const liveText = new Set<string>(['text-delta', 'thoughts-delta', 'text-discard']);

export function createTurnRunner(options: { clock: Clock; queued?: boolean }): TurnRunner {
  // Each thread's turns in the order they were sent; the first is the one running.
  const running = new Map<string, RunningTurn[]>();
  const bus = createObservationBus();
  const remove = (threadId: string, entry: RunningTurn) => {
    const left = (running.get(threadId) ?? []).filter((e) => e !== entry);
    if (left.length === 0) running.delete(threadId);
    else running.set(threadId, left);
  };
  // The agent did not take the stop (its turn had not started yet, so the thread's lease refused the
  // message): the running turn is cancelled instead, which ends it as a stop too, and its answer is the stop's.
  const passStop = (threadId: string, task: (signal: AbortSignal) => Promise<TurnResult>) =>
    task(new AbortController().signal).catch((error: unknown) => {
      const first = running.get(threadId)?.[0];
      if (!ThreadBusyError.isInstance(error) || !first) throw error;
      first.controller.abort(new Error('The turn was stopped.'));
      return first.result;
    });
  return {
    run(threadId, principal, task, runOptions) {
      const busy = running.has(threadId) && !options.queued;
      // A stop goes to the agent, which hands it to the turn that runs (docs/decisions/0081).
      if (busy && runOptions?.stop) return passStop(threadId, task);
      if (busy) return Promise.reject(new ThreadBusyError({ threadId }));
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
        .finally(() => remove(threadId, entry));
      const entry: RunningTurn = { principal, controller, done: done.catch(() => undefined), result: done };
      running.set(threadId, [...(running.get(threadId) ?? []), entry]);
      return done;
    },
    isRunning: (threadId) => running.has(threadId),
    noteProgress(observation) {
      const entry = running.get(observation.threadId)?.[0];
      // A delta is a piece of the reply, not what the turn is doing: a stream opened mid-turn skips it.
      if (entry && observation.id === 0 && !liveText.has(observation.type)) entry.progress = observation;
    },
    currentProgress: (threadId) => running.get(threadId)?.[0]?.progress,
    ownerOf: (threadId) => running.get(threadId)?.[0]?.principal,
    cancel(threadId) {
      const entries = running.get(threadId);
      if (!entries) return false;
      // The thread's stop: the running turn and any sent after it.
      for (const entry of entries) entry.controller.abort(new Error('The turn was cancelled.'));
      return true;
    },
    subscribe: bus.subscribe,
    async close() {
      const entries = [...running.values()].flat();
      for (const entry of entries) entry.controller.abort(new Error('The server is shutting down.'));
      await Promise.all(entries.map((e) => e.done));
    },
  };
}
