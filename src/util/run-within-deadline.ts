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
import { beginWork } from './begin-work.js';
import type { Clock } from './clock.js';
import { onAbort } from './shared-waits/on-abort.js';
import { startTimer } from './shared-waits/start-timer.js';
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
  stopReason?: () => unknown;
  /**
   * The controller whose signal the work gets, for a caller whose consecutive calls share one (a skill
   * run's model calls and tool batches); aborted when the deadline or the stop wins. Left out, the call
   * gets a controller of its own.
   */
  controller?: AbortController | undefined;
  /** The work, handed the signal (`abort.signal`) that aborts when the deadline or the stop wins. */
  work: (abort: WorkAbort) => Promise<T> | T;
}

/** What the work is handed: its signal, which aborts when the deadline or the stop wins. */
export interface WorkAbort {
  readonly signal: AbortSignal;
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
 *   work: (abort) => fetch(url, { signal: abort.signal }),
 * });
 * if (outcome.status === 'deadline') console.log('no answer within 5 s');
 */
export function runWithinDeadline<T>(options: RunWithinDeadlineOptions<T>): Promise<DeadlineOutcome<T>> {
  const { clock, signal, stop } = options;
  try {
    const deadline = typeof options.deadline === 'number' ? constant(options.deadline) : options.deadline;
    if (signal?.aborted || stop?.stopped) return Promise.resolve({ status: 'stopped', started: false });
    if (clock.now() >= deadline()) return Promise.resolve({ status: 'deadline', started: false });
    return new DeadlineRace(options, deadline).outcome;
  } catch (error) {
    return Promise.reject(error);
  }
}

function constant(value: number): () => number {
  return () => value;
}

/**
 * One call's race: it watches the deadline and the caller's stop, begins the work, and settles its
 * `outcome` with whichever comes first, taking its timer and listeners back as it does. The race settles
 * its own promise rather than being awaited by an async function around it, docs/decisions/0091.
 */
class DeadlineRace<T> {
  readonly outcome: Promise<DeadlineOutcome<T>>;
  private settle: (outcome: DeadlineOutcome<T>) => void = () => undefined;
  private decided = false;
  private readonly workAbort: WorkAbort & { abort(reason: unknown): void };
  private cancelTimer: (() => void) | undefined = undefined;
  private unwatchSignal: (() => void) | undefined = undefined;
  private unwatchStop: (() => void) | undefined = undefined;

  constructor(
    private readonly options: RunWithinDeadlineOptions<T>,
    private readonly deadline: () => number,
  ) {
    this.outcome = new Promise((resolve) => {
      this.settle = resolve;
    });
    this.workAbort = options.controller ?? createLazyAbort();
    const { signal, stop } = options;
    try {
      if (signal) this.unwatchSignal = onAbort(signal, this.onStop);
      if (stop) this.unwatchStop = stop.onStop(this.onStop);
      this.checkDeadline();
    } catch (error) {
      // A clock or a stop that throws: nothing armed so far is left behind.
      this.release();
      throw error;
    }
    // The work begins once the caller holds the promise of its outcome and its deadline and stop are
    // watched (a skill run's first model call is made after `runSkillLoop` returned, not inside it); a
    // stop that came meanwhile has decided the race, and the work is not begun.
    beginWork(() => (this.decided ? (undefined as T) : options.work(this.workAbort)), this);
  }

  done(value: T): void {
    this.decide({ status: 'done', value });
  }

  failed(error: unknown): void {
    this.decide({ status: 'failed', error });
  }

  /** Decides the race once its deadline has passed; until then the timer reads a moving deadline again. */
  private readonly checkDeadline = (): void => {
    this.cancelTimer = undefined;
    if (this.decided) return;
    const left = this.deadline() - this.options.clock.now();
    if (left <= 0) this.decide({ status: 'deadline', started: true });
    else this.cancelTimer = startTimer(this.options.clock, left, this.checkDeadline);
  };

  private readonly onStop = (): void => {
    this.decide({ status: 'stopped', started: true });
  };

  private decide(outcome: DeadlineOutcome<T>): void {
    if (this.decided) return;
    this.decided = true;
    this.release();
    const { options } = this;
    try {
      if (outcome.status === 'deadline')
        this.workAbort.abort(
          options.deadlineReason ? options.deadlineReason() : new Error('The deadline passed.'),
        );
      if (outcome.status === 'stopped') {
        const { signal, stop } = options;
        this.workAbort.abort(
          options.stopReason ? options.stopReason() : signal?.aborted ? signal.reason : stop?.reason,
        );
      }
    } finally {
      this.settle(outcome);
    }
  }

  /** Takes back the timer and the listeners on the caller's stop. */
  private release(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.unwatchSignal?.();
    this.unwatchSignal = undefined;
    this.unwatchStop?.();
    this.unwatchStop = undefined;
  }
}

/**
 * An abort controller whose signal is made only when the work first reads it (already aborted if the race
 * was decided by then): most tools never read theirs. Kept for its cost, docs/decisions/0008.
 */
class LazyAbort implements WorkAbort {
  private controller: AbortController | undefined = undefined;
  private aborted: { reason: unknown } | undefined = undefined;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.aborted.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = { reason };
    this.controller?.abort(reason);
  }
}

function createLazyAbort(): WorkAbort & { abort(reason: unknown): void } {
  return new LazyAbort();
}
