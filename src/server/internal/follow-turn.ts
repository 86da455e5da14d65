/**
 * Runs a turn and hands each of the thread's events to `write` as it comes — stored observations after
 * `afterId`, exactly once, and live progress — until every observation the turn saved has been written.
 * Then it says how the turn ended. The event-stream answer of a message and the chat endpoint write the
 * same events, each in its own wire format.
 */
import type { TurnResult } from '../../agent/index.js';
import { streamObservations } from '../../observe/index.js';
import type { Observation } from '../../spec/index.js';
import type { ServerContext } from '../server-types.js';

export type FollowedTurn =
  | { ok: true; result: TurnResult }
  | { ok: false; error: unknown }
  /** The reader went away (or the server is closing) before the turn ended. */
  | { ok: false; gone: true };

export interface FollowTurnOptions {
  threadId: string;
  principal: string;
  run: (signal: AbortSignal) => Promise<TurnResult>;
  /** A stop message: it reaches the thread's running turn instead of being refused (`TurnRunner.run`). */
  stop?: boolean;
  /** The thread's last stored event before the turn. */
  afterId: number;
  write: (observation: Observation) => Promise<void>;
  /** The reader's end: the stream stops following (the turn itself runs on). */
  signal: AbortSignal;
}

export async function followTurn(context: ServerContext, options: FollowTurnOptions): Promise<FollowedTurn> {
  const { threadId, afterId } = options;
  const controller = new AbortController();
  const stop = () => controller.abort();
  options.signal.addEventListener('abort', stop);
  context.shutdown.addEventListener('abort', stop);
  let lastWritten = afterId;
  let target: number | undefined;
  const outcome = context.runner
    .run(threadId, options.principal, options.run, { stop: options.stop === true })
    .then(
      (result): FollowedTurn => {
        target = Math.max(afterId, ...result.observations.map((o) => o.id));
        if (lastWritten >= target) controller.abort();
        return { ok: true, result };
      },
      (error: unknown): FollowedTurn => {
        controller.abort();
        return { ok: false, error };
      },
    );
  try {
    const events = streamObservations({
      store: context.agent.store,
      subscribe: context.subscribe,
      threadId,
      afterId,
      progress: true,
      signal: controller.signal,
      ...(context.pollIntervalMs !== undefined ? { pollIntervalMs: context.pollIntervalMs } : {}),
    });
    for await (const observation of events) {
      // The runner's own failure event is answered as the turn's error instead.
      if (observation.id === 0 && observation.type === 'error' && observation.data.phase === 'turn') continue;
      await options.write(observation);
      if (observation.id > 0) lastWritten = observation.id;
      if (target !== undefined && lastWritten >= target) break;
    }
    if (options.signal.aborted || context.shutdown.aborted) return { ok: false, gone: true };
    return await outcome;
  } finally {
    options.signal.removeEventListener('abort', stop);
    context.shutdown.removeEventListener('abort', stop);
    controller.abort();
  }
}
