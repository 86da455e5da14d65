/**
 * The one deadline race of flowstack, shared by the tool timeout (the pipeline's execute stage) and the
 * skill run's limits (its model calls and tool batches): outside work is waited for until it settles, its
 * deadline passes on the injected clock, or the caller stops it, whichever comes first. When the deadline
 * or the stop wins, the work's signal is aborted and whatever the work does later is discarded. Once the
 * race is decided nothing of it is left behind: no timer, and no listener on the caller's signal, which
 * outlives the call (a run's or a batch's signal serves many calls).
 *
 * `AbortSignal.timeout` does not fit: deadlines are on the injected clock, so that tests never wait on the
 * wall clock. Nor does `AbortSignal.any`: a signal made from a long-lived one stays linked to it until that
 * one aborts (nodejs/node#55351), and the caller's signal here is long-lived.
 */
import type { Clock } from './clock.js';
import type { StopSource } from './stop-source.js';

export type DeadlineOutcome<T> =
  | { status: 'done'; value: T }
  | { status: 'failed'; error: unknown }
  /** `started`: the work was begun before the deadline or the stop; it is not begun after either. */
  | { status: 'deadline'; started: boolean }
  | { status: 'stopped'; started: boolean };

export interface RunWithinDeadlineOptions<T> {
  clock: Clock;
  /**
   * When the work must have settled, on `clock`. A function is read again whenever the wait for it ends,
   * so a deadline that moves later (an idle limit that activity renews) is followed.
   */
  deadline: number | (() => number);
  /** The caller's stop: the user's, or a cancelled batch's. */
  signal?: AbortSignal | undefined;
  /** A stop told by callback (a lost thread lease), which works as `signal` does. */
  stop?: StopSource | undefined;
  /** What the work's signal is aborted with when the deadline passes. */
  deadlineReason?: () => unknown;
  /** What the work's signal is aborted with when the caller stops it; the stop's own reason by default. */
  stopReason?: unknown;
  /** The work, given a signal that aborts when the deadline or the stop wins. */
  work: (signal: AbortSignal) => Promise<T> | T;
}

/**
 * Runs `work` within its deadline and the caller's stop, and says which came first. The work begins in a
 * later microtask, never inside this call; it is not begun at all once the caller stopped or the
 * deadline passed (`started: false`).
 *
 * @example
 * const outcome = await runWithinDeadline({
 *   clock: systemClock,
 *   deadline: systemClock.now() + 5_000,
 *   signal: userSignal,
 *   work: (signal) => fetch(url, { signal }),
 * });
 * if (outcome.status === 'deadline') console.log('no answer within 5 s');
 */
export async function runWithinDeadline<T>(
  options: RunWithinDeadlineOptions<T>,
): Promise<DeadlineOutcome<T>> {
  const { clock, signal, stop } = options;
  const deadline = typeof options.deadline === 'number' ? constant(options.deadline) : options.deadline;
  if (signal?.aborted || stop?.stopped) return { status: 'stopped', started: false };
  if (clock.now() >= deadline()) return { status: 'deadline', started: false };
  const workAbort = new AbortController();
  const raceOver = new AbortController();
  const racers: Promise<DeadlineOutcome<T>>[] = [
    settle(options.work, workAbort.signal),
    deadlinePassed(clock, deadline, raceOver.signal),
  ];
  if (signal || stop) racers.push(stopped(signal, stop, raceOver.signal));
  try {
    const outcome = await Promise.race(racers);
    if (outcome.status === 'deadline')
      workAbort.abort(options.deadlineReason ? options.deadlineReason() : new Error('The deadline passed.'));
    if (outcome.status === 'stopped')
      workAbort.abort(options.stopReason ?? (signal?.aborted ? signal.reason : stop?.reason));
    return outcome;
  } finally {
    raceOver.abort();
  }
}

function constant(value: number): () => number {
  return () => value;
}

/** The work's own outcome, as data: a work that throws, at once or later, has failed. */
async function settle<T>(
  work: (signal: AbortSignal) => Promise<T> | T,
  signal: AbortSignal,
): Promise<DeadlineOutcome<T>> {
  // The work begins once the caller holds the promise of its outcome and its deadline and stop are
  // watched (a skill run's first model call is made after `runSkillLoop` returned, not inside it); a
  // stop that came meanwhile has decided the race, and the work is not begun.
  await Promise.resolve();
  if (signal.aborted) return { status: 'stopped', started: true };
  try {
    return { status: 'done', value: await work(signal) };
  } catch (error) {
    return { status: 'failed', error };
  }
}

/** Resolves when the deadline has passed; its sleep is cut short once the race is over. */
async function deadlinePassed(
  clock: Clock,
  deadline: () => number,
  raceOver: AbortSignal,
): Promise<DeadlineOutcome<never>> {
  let left = deadline() - clock.now();
  // A clock whose sleep does not heed the signal still ends this wait when the race is over.
  while (left > 0 && !raceOver.aborted) {
    await clock.sleep(left, raceOver);
    left = deadline() - clock.now();
  }
  return { status: 'deadline', started: true };
}

/** Resolves when the caller stops; takes its listeners back once the race is over. */
function stopped(
  signal: AbortSignal | undefined,
  stop: StopSource | undefined,
  raceOver: AbortSignal,
): Promise<DeadlineOutcome<never>> {
  return new Promise((resolve) => {
    const onStop = () => resolve({ status: 'stopped', started: true });
    signal?.addEventListener('abort', onStop, { once: true });
    const unwatch = stop?.onStop(onStop);
    raceOver.addEventListener(
      'abort',
      () => {
        signal?.removeEventListener('abort', onStop);
        unwatch?.();
      },
      { once: true },
    );
  });
}
