/**
 * Waits for one piece of outside work (a model call, a tool batch) no longer than the run's idle and
 * wall-clock limits allow, on the injected clock, and no longer than the user lets it. When a limit
 * or a stop wins, the work's signal is aborted and the loop moves on without it: a tool that never
 * resolves cannot hang a skill. The race itself is the shared deadline helper's (`runWithinDeadline`);
 * this names its outcome in the skill run's words.
 */
import { type Clock, runWithinDeadline, type StopSource } from '../util/index.js';

export type StopReason = 'idle' | 'wall-time' | 'user-stop';

export type WithinOutcome<T> =
  | { status: 'done'; value: T }
  | { status: 'failed'; error: unknown }
  | { status: 'stopped'; reason: StopReason /** The work was begun before the stop. */; started: boolean };

/** The limits and stop of one `awaitWithin` call. */
export interface WithinDeadlines {
  clock: Clock;
  /** When the idle limit passes; read again whenever a wait ends, since activity moves it. */
  idleDeadline: () => number;
  wallDeadline: number;
  /** The user's stop. */
  signal?: AbortSignal | undefined;
  /** A stop told by callback, which works as `signal` does (a lost thread lease). */
  stop?: StopSource | undefined;
}

export interface AwaitWithinOptions<T> extends WithinDeadlines {
  /**
   * The controller whose signal the work gets; one per call when left out. A skill run hands the same one
   * to its consecutive calls: it is aborted only when a call is stopped, and must then be replaced.
   */
  controller?: AbortController | undefined;
  /** The work, given a signal that aborts when a limit or the user's stop wins. */
  work: (signal: AbortSignal) => Promise<T>;
}

/**
 * Runs `work` and waits for it, or for the idle or wall deadline or the user's stop, whichever comes first.
 * Work is not begun once the user stopped or a limit passed (`started: false`).
 *
 * @example
 * const outcome = await awaitWithin({
 *   clock, idleDeadline: () => lastActivityAt + 120_000, wallDeadline: startedAt + 1_800_000, signal,
 *   work: (signal) => invokeModel({ model, prompt, signal }),
 * });
 */
export async function awaitWithin<T>(options: AwaitWithinOptions<T>): Promise<WithinOutcome<T>> {
  const { clock, idleDeadline, wallDeadline, signal, stop } = options;
  const limitPassed = (): StopReason => (clock.now() >= wallDeadline ? 'wall-time' : 'idle');
  const outcome = await runWithinDeadline({
    clock,
    deadline: () => Math.min(idleDeadline(), wallDeadline),
    signal,
    stop,
    deadlineReason: () => new Error(`stopped: ${limitPassed()}`),
    controller: options.controller,
    work: (abort) => options.work(abort.signal),
  });
  switch (outcome.status) {
    case 'done':
      return outcome;
    case 'failed':
      // Work that gave up because the user stopped it was stopped, not broken.
      return signal?.aborted || stop?.stopped
        ? { status: 'stopped', reason: 'user-stop', started: true }
        : outcome;
    case 'deadline':
      return { status: 'stopped', reason: limitPassed(), started: outcome.started };
    case 'stopped':
      return { status: 'stopped', reason: 'user-stop', started: outcome.started };
  }
}
