/**
 * Waits for one piece of outside work (a model call, a tool batch) no longer than the run's idle and
 * wall-clock limits allow, on the injected clock, and no longer than the user lets it. When a limit
 * or a stop wins, the work's signal is aborted and the loop moves on without it: a tool that never
 * resolves cannot hang a skill.
 */
import type { Clock } from '../util/index.js';

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
  /**
   * The controller whose signal the work gets; a new one per call when left out. A caller may hand the
   * same controller to consecutive calls whose signal only its own code listens to (adding and removing
   * its listeners per call): it is aborted only when a call is stopped, and must then be replaced.
   */
  controller?: () => AbortController;
  work: (signal: AbortSignal) => Promise<T>;
}

/** Ends the watch's sleep once the race is decided; one shared reason, so no `DOMException` is built per call. */
const watchDone = new Error('awaitWithin: settled');

/**
 * Runs `work` and waits for it, or for the idle or wall deadline or the user's stop, whichever comes first.
 * One `AbortController` per call unless the caller hands one in (the work's signal, linked to the user's); the deadline watch uses the
 * clock's `setTimer` when it has one, else `sleep` with a signal that is aborted once the race is decided.
 */
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
  const workController = options.controller ? options.controller() : new AbortController();
  let settle!: (outcome: WithinOutcome<T>) => void;
  const stopped = new Promise<WithinOutcome<T>>((resolve) => {
    settle = resolve;
  });
  const onAbort = () => {
    workController.abort(signal?.reason);
    settle({ status: 'stopped', reason: 'user-stop', started: true });
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const work = Promise.resolve()
    .then(() => options.work(workController.signal))
    .then(
      (value): WithinOutcome<T> => ({ status: 'done', value }),
      (error: unknown): WithinOutcome<T> => ({ status: 'failed', error }),
    );
  const cancelWatch = watchDeadlines(options, settle);
  const winner = await Promise.race([work, stopped]);
  cancelWatch();
  signal?.removeEventListener('abort', onAbort);
  if (winner.status === 'stopped' && !workController.signal.aborted)
    workController.abort(new Error(`stopped: ${winner.reason}`));
  if (winner.status === 'failed' && signal?.aborted)
    return { status: 'stopped', reason: 'user-stop', started: true };
  return winner;
}

/**
 * Settles with `idle` or `wall-time` when the nearer deadline passes (the idle deadline is read again
 * at every wake-up, since activity moves it). Returns the function that stops watching.
 */
function watchDeadlines<T>(
  options: AwaitWithinOptions<T>,
  settle: (outcome: WithinOutcome<T>) => void,
): () => void {
  const { clock } = options;
  let done = false;
  let cancelTimer: (() => void) | undefined;
  let sleeping: AbortController | undefined;
  const wait = (ms: number) => {
    if (clock.setTimer) {
      cancelTimer = clock.setTimer(ms, check);
      return;
    }
    sleeping ??= new AbortController();
    // A clock whose sleep ignores the abort must not keep this watch going after the race.
    clock.sleep(ms, sleeping.signal).then(check, () => undefined);
  };
  function check() {
    if (done) return;
    const now = clock.now();
    const at = Math.min(options.idleDeadline(), options.wallDeadline);
    if (now < at) return wait(at - now);
    settle({ status: 'stopped', reason: now >= options.wallDeadline ? 'wall-time' : 'idle', started: true });
  }
  check();
  return () => {
    done = true;
    cancelTimer?.();
    sleeping?.abort(watchDone);
  };
}
