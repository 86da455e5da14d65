/**
 * Waits for one piece of outside work (a model call, a tool batch) no longer than the run's idle and
 * wall-clock limits allow, on the injected clock, and no longer than the user lets it. When a limit
 * or a stop wins, the work's signal is aborted and the loop moves on without it: a tool that never
 * resolves cannot hang a skill.
 */
import type { Clock, StopSource } from '../util/index.js';

export type StopReason = 'idle' | 'wall-time' | 'user-stop';

export type WithinOutcome<T> =
  | { status: 'done'; value: T }
  | { status: 'failed'; error: unknown }
  | { status: 'stopped'; reason: StopReason /** The work was begun before the stop. */; started: boolean };

/** The limits and stop of one `awaitWithin` call. */
export interface WithinDeadlines {
  clock: Clock;
  /** When the idle limit passes; read again after every wake-up, since activity moves it. */
  idleDeadline: () => number;
  wallDeadline: number;
  /** The user's stop. */
  signal?: AbortSignal | undefined;
  /** A stop told by callback, which works as `signal` does (a lost thread lease). */
  stop?: StopSource | undefined;
}

export type AwaitWithinOptions<T> = (WithinDeadlines | { watch: WithinWatch }) & {
  /**
   * The controller whose signal the work gets; a new one per call when left out. A caller may hand the
   * same controller to consecutive calls whose signal only its own code listens to (adding and removing
   * its listeners per call): it is aborted only when a call is stopped, and must then be replaced.
   */
  controller?: () => AbortController;
  work: (signal: AbortSignal) => Promise<T>;
};

/** Ends the watch's sleep once the race is decided; one shared reason, so no `DOMException` is built per call. */
const watchDone = new Error('awaitWithin: settled');

type Stopped = Extract<WithinOutcome<never>, { status: 'stopped' }>;

/**
 * Watches the deadlines and the user's stop for consecutive `awaitWithin` calls of one run (a skill run's
 * model calls and tool batches): one timer and one abort listener for the whole run instead of one of each
 * per call. The timer is armed at the nearer deadline when a call begins and nothing earlier is armed; when
 * it fires it reads the deadlines again (activity moves the idle one later, never earlier), so a timer
 * armed for an older deadline only wakes the watch early. `close` must be called when the run ends: it
 * cancels the timer and the listener.
 */
export interface WithinWatch extends WithinDeadlines {
  /** Cancels the timer and the listener; calls after it still work, on their own timers. */
  close(): void;
}

interface WatchState extends WithinWatch {
  closed: boolean;
  waiter: ((outcome: Stopped) => void) | undefined;
  begin(waiter: (outcome: Stopped) => void): void;
}

export function createWithinWatch(options: {
  clock: Clock;
  idleDeadline: () => number;
  wallDeadline: number;
  signal?: AbortSignal;
  stop?: StopSource;
}): WithinWatch {
  return new RunWatch(options);
}

const userStop: Stopped = Object.freeze({ status: 'stopped', reason: 'user-stop', started: true });

/**
 * The watch of one run, as a class: a run in flight holds it for its whole life, and the closures of a
 * watch written as functions (six, and their context) weighed more than its fields. It listens to the
 * user's signal as an `EventListener` object (`handleEvent`), so no listener function is made either.
 */
class RunWatch implements WatchState {
  readonly clock: Clock;
  readonly signal: AbortSignal | undefined;
  readonly stop: StopSource | undefined;
  readonly wallDeadline: number;
  readonly idleDeadline: () => number;
  closed = false;
  waiter: ((outcome: Stopped) => void) | undefined = undefined;
  private armedAt = Number.POSITIVE_INFINITY;
  private cancel: (() => void) | undefined = undefined;
  private listening = false;
  private unwatchStop: (() => void) | undefined = undefined;
  /** The timer's callback, made when the watch first arms one. */
  private onTimer: (() => void) | undefined = undefined;

  constructor(options: {
    clock: Clock;
    idleDeadline: () => number;
    wallDeadline: number;
    signal?: AbortSignal;
    stop?: StopSource;
  }) {
    this.clock = options.clock;
    this.signal = options.signal;
    this.stop = options.stop;
    this.wallDeadline = options.wallDeadline;
    this.idleDeadline = options.idleDeadline;
  }

  begin(waiter: (outcome: Stopped) => void): void {
    this.waiter = waiter;
    if (this.signal && !this.listening) {
      this.listening = true;
      this.signal.addEventListener('abort', this, { once: true });
    }
    if (this.stop && !this.unwatchStop) this.unwatchStop = this.stop.onStop(() => this.waiter?.(userStop));
    const at = Math.min(this.idleDeadline(), this.wallDeadline);
    if (at < this.armedAt) this.arm(at, this.clock.now());
  }

  close(): void {
    this.closed = true;
    this.waiter = undefined;
    this.cancel?.();
    this.cancel = undefined;
    if (this.listening) this.signal?.removeEventListener('abort', this);
    this.listening = false;
    this.unwatchStop?.();
    this.unwatchStop = undefined;
  }

  /** The user's signal aborted. */
  handleEvent(): void {
    this.listening = false;
    this.waiter?.(userStop);
  }

  private fire(): void {
    this.cancel = undefined;
    this.armedAt = Number.POSITIVE_INFINITY;
    if (this.closed || !this.waiter) return;
    const now = this.clock.now();
    const at = Math.min(this.idleDeadline(), this.wallDeadline);
    if (now < at) {
      this.arm(at, now);
      return;
    }
    this.waiter({
      status: 'stopped',
      reason: now >= this.wallDeadline ? 'wall-time' : 'idle',
      started: true,
    });
  }

  private arm(at: number, now: number): void {
    this.cancel?.();
    this.armedAt = at;
    this.onTimer ??= () => this.fire();
    if (this.clock.setTimer) {
      this.cancel = this.clock.setTimer(at - now, this.onTimer);
      return;
    }
    const sleeping = new AbortController();
    this.cancel = () => sleeping.abort(watchDone);
    const onTimer = this.onTimer;
    this.clock.sleep(at - now, sleeping.signal).then(
      () => (sleeping.signal.aborted ? undefined : onTimer()),
      () => undefined,
    );
  }
}

/**
 * Runs `work` and waits for it, or for the idle or wall deadline or the user's stop, whichever comes first.
 * One `AbortController` per call unless the caller hands one in (the work's signal, linked to the user's); the deadline watch uses the
 * clock's `setTimer` when it has one, else `sleep` with a signal that is aborted once the race is decided.
 * With `watch`, the deadlines, clock and stop signal are the watch's, and it watches them for every call.
 */
export function awaitWithin<T>(options: AwaitWithinOptions<T>): Promise<WithinOutcome<T>> {
  // Not `async`: the caller awaits a reaction on the race, and no frame of this function is kept while
  // the work runs (one per skill run waiting on its model or its tools).
  try {
    return within(options);
  } catch (error) {
    return Promise.reject(error);
  }
}

function within<T>(options: AwaitWithinOptions<T>): Promise<WithinOutcome<T>> {
  const shared = 'watch' in options ? (options.watch as WatchState) : undefined;
  const {
    clock,
    signal,
    stop: stopSource,
    idleDeadline,
    wallDeadline,
  }: WithinDeadlines = shared ?? (options as WithinDeadlines);
  // A closed watch (its run ended, yet a call came after) no longer watches: the call watches for itself.
  const watch = shared?.closed === false ? shared : undefined;
  if (signal?.aborted || stopSource?.stopped)
    return Promise.resolve({ status: 'stopped', reason: 'user-stop', started: false });
  const before = clock.now();
  if (before >= Math.min(idleDeadline(), wallDeadline))
    return Promise.resolve({
      status: 'stopped',
      reason: before >= wallDeadline ? 'wall-time' : 'idle',
      started: false,
    });
  const workController = options.controller ? options.controller() : new AbortController();
  let cancelWatch: (() => void) | undefined;
  let onStop: (() => void) | undefined;
  let unwatchStop: (() => void) | undefined;
  // The race settles once, with the outcome the caller gets: whoever comes first (the work, a deadline, the
  // user's stop) also ends the watching, so no reaction on the race is needed to clean up after it.
  let answer!: (outcome: WithinOutcome<T>) => void;
  const winner = new Promise<WithinOutcome<T>>((resolve) => {
    answer = resolve;
  });
  let done = false;
  const settle = (outcome: WithinOutcome<T>) => {
    if (done) return;
    done = true;
    if (watch) watch.waiter = undefined;
    else {
      cancelWatch?.();
      if (onStop) signal?.removeEventListener('abort', onStop);
      unwatchStop?.();
    }
    if (outcome.status === 'stopped' && !workController.signal.aborted)
      workController.abort(new Error(`stopped: ${outcome.reason}`));
    answer(
      outcome.status === 'failed' && (signal?.aborted || stopSource?.stopped)
        ? { status: 'stopped', reason: 'user-stop', started: true }
        : outcome,
    );
  };
  const stop = (outcome: Stopped) => {
    if (outcome.reason === 'user-stop' && !done)
      workController.abort(signal?.aborted ? signal.reason : stopSource?.reason);
    settle(outcome);
  };
  if (watch) watch.begin(stop);
  else {
    onStop = () => stop({ status: 'stopped', reason: 'user-stop', started: true });
    signal?.addEventListener('abort', onStop, { once: true });
    unwatchStop = stopSource?.onStop(onStop);
    cancelWatch = watchDeadlines(clock, idleDeadline, wallDeadline, stop);
    // A deadline that passed while the watch was set up settled at once, before `cancelWatch` was known.
    if (done) cancelWatch();
  }
  // The work starts in a microtask, as it always has: the caller gets its promise back first.
  queueMicrotask(() => {
    let work: Promise<T>;
    try {
      work = options.work(workController.signal);
    } catch (error) {
      settle({ status: 'failed', error });
      return;
    }
    // A caller's `work` written without `async` may hand back a plain value.
    if (typeof (work as { then?: unknown } | undefined)?.then !== 'function') {
      settle({ status: 'done', value: work as T });
      return;
    }
    work.then(
      (value) => settle({ status: 'done', value }),
      (error: unknown) => settle({ status: 'failed', error }),
    );
  });
  return winner;
}

/**
 * Settles with `idle` or `wall-time` when the nearer deadline passes (the idle deadline is read again
 * at every wake-up, since activity moves it). Returns the function that stops watching.
 */
function watchDeadlines(
  clock: Clock,
  idleDeadline: () => number,
  wallDeadline: number,
  settle: (outcome: Stopped) => void,
): () => void {
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
    const at = Math.min(idleDeadline(), wallDeadline);
    if (now < at) return wait(at - now);
    settle({ status: 'stopped', reason: now >= wallDeadline ? 'wall-time' : 'idle', started: true });
  }
  check();
  return () => {
    done = true;
    cancelTimer?.();
    sleeping?.abort(watchDone);
  };
}
