/**
 * Waits for one piece of outside work (a model call, a tool batch) no longer than the run's idle and
 * wall-clock limits allow, on the injected clock, and no longer than the user lets it. When a limit
 * or a stop wins, the work's signal is aborted and the loop moves on without it: a tool that never
 * resolves cannot hang a skill.
 */
import type { Clock } from '../util/index.js';
import { linkSignals } from './internal/any-signal.js';

export type StopReason = 'idle' | 'wall-time' | 'user-stop';

export type WithinOutcome<T> =
  | { status: 'done'; value: T }
  | { status: 'failed'; error: unknown }
  | { status: 'stopped'; reason: StopReason /** The work was begun before the stop. */; started: boolean };

export interface AwaitWithinOptions<T> {
  clock: Clock;
  /** When the idle limit passes; read again after every wake-up, since activity moves it. */
  idleDeadline: () => number;
  wallDeadline: number;
  /** The user's stop. */
  signal?: AbortSignal;
  work: (signal: AbortSignal) => Promise<T>;
}

/** Runs `work` and waits for it, or for the idle or wall deadline or the user's stop, whichever comes first. */
export async function awaitWithin<T>(options: AwaitWithinOptions<T>): Promise<WithinOutcome<T>> {
  const { clock, signal } = options;
  if (signal?.aborted) return { status: 'stopped', reason: 'user-stop', started: false };
  const before = clock.now();
  if (before >= Math.min(options.idleDeadline(), options.wallDeadline))
    return {
      status: 'stopped',
      reason: before >= options.wallDeadline ? 'wall-time' : 'idle',
      started: false,
    };
  const workController = new AbortController();
  const watchController = new AbortController();
  const linked = linkSignals([signal, workController.signal]);
  const workSignal = linked.signal;
  const never = new Promise<never>(() => undefined);
  const work = Promise.resolve()
    .then(() => options.work(workSignal))
    .then(
      (value): WithinOutcome<T> => ({ status: 'done', value }),
      (error: unknown): WithinOutcome<T> => ({ status: 'failed', error }),
    );
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<WithinOutcome<T>>((resolve) => {
    onAbort = () => resolve({ status: 'stopped', reason: 'user-stop', started: true });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const watch = (async (): Promise<WithinOutcome<T>> => {
    for (;;) {
      // A clock whose sleep ignores the abort must not keep this loop spinning after the race.
      if (watchController.signal.aborted) return never;
      const now = clock.now();
      const at = Math.min(options.idleDeadline(), options.wallDeadline);
      if (now >= at)
        return {
          status: 'stopped',
          reason: now >= options.wallDeadline ? 'wall-time' : 'idle',
          started: true,
        };
      try {
        await clock.sleep(at - now, watchController.signal);
      } catch {
        return never;
      }
    }
  })();
  const winner = await Promise.race([work, stopped, watch]);
  watchController.abort();
  if (onAbort) signal?.removeEventListener('abort', onAbort);
  if (winner.status === 'stopped') workController.abort(new Error(`stopped: ${winner.reason}`));
  linked.release();
  if (winner.status === 'failed' && signal?.aborted)
    return { status: 'stopped', reason: 'user-stop', started: true };
  return winner;
}
