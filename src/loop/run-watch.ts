/**
 * The watch over one skill run's idle and wall-clock limits and the user's stop, shared by all the run's
 * model calls and tool batches. A run waits for one piece of outside work at a time, so instead of a
 * deadline race per call (a timer and a listener armed and taken back for every step, as `awaitWithin`
 * does) the run keeps one timer and one listener for its whole life: the timer is armed at the nearer
 * deadline when a call waits and none is armed, and when it fires it reads the deadlines again (activity
 * moves the idle one later) and either re-arms or stops the waiting call. Kept for its cost,
 * docs/decisions/0064; it answers exactly as `awaitWithin` does, which its tests check side by side.
 */
import { beginWork, startTimer } from '../util/index.js';
import type { StopReason, WithinDeadlines, WithinOutcome } from './await-within.js';

export interface RunWatch {
  /**
   * Runs `work` with `controller`'s signal and waits for it, or for a limit or the user's stop, whichever
   * comes first; the controller is aborted when a limit or the stop wins. The work begins in a later
   * microtask, and not at all once a limit passed or the user stopped (`started: false`).
   */
  wait<T>(controller: AbortController, work: (signal: AbortSignal) => Promise<T>): Promise<WithinOutcome<T>>;
  /** The run ended: the timer and the listener are taken back. A call after this watches for itself. */
  close(): void;
}

export function createRunWatch(limits: WithinDeadlines): RunWatch {
  return new SharedRunWatch(limits);
}

/** The outcome of a call that was not begun: a limit had passed or the user had stopped. */
function notBegun(reason: StopReason): Promise<WithinOutcome<never>> {
  return Promise.resolve({ status: 'stopped', reason, started: false });
}

class SharedRunWatch implements RunWatch {
  /** The call that waits now, if one does. */
  private waiting: WaitingCall<unknown> | undefined = undefined;
  private cancelTimer: (() => void) | undefined = undefined;
  private unwatchStop: (() => void) | undefined = undefined;
  private closed = false;

  constructor(private readonly limits: WithinDeadlines) {}

  wait<T>(controller: AbortController, work: (signal: AbortSignal) => Promise<T>): Promise<WithinOutcome<T>> {
    const { clock, signal, stop } = this.limits;
    if (signal?.aborted || stop?.stopped) return notBegun('user-stop');
    const left = this.deadline() - clock.now();
    if (left <= 0) return notBegun(this.limitPassed());
    this.watchStop();
    if (!this.cancelTimer) this.cancelTimer = startTimer(clock, left, this.onTimer);
    const call = new WaitingCall<T>(this, controller);
    this.waiting = call as WaitingCall<unknown>;
    // The work begins once its limits and stop are watched.
    beginWork(() => work(controller.signal), call);
    return call.outcome;
  }

  close(): void {
    this.closed = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.unwatchStop?.();
    this.unwatchStop = undefined;
  }

  /** The waiting call has its outcome: the watch waits for nothing until the next call. */
  ended(call: WaitingCall<unknown>): void {
    if (this.waiting === call) this.waiting = undefined;
    // A call made after the run ended takes back what it armed.
    if (this.closed) this.close();
  }

  /** Whether the user stopped the run: the signal aborted or the stop was asked for. */
  stoppedByUser(): boolean {
    return this.limits.signal?.aborted === true || this.limits.stop?.stopped === true;
  }

  /** Why the user stopped the run: the signal's reason, else the stop's. */
  userStopReason(): unknown {
    const { signal, stop } = this.limits;
    return signal?.aborted ? signal.reason : stop?.reason;
  }

  private deadline(): number {
    return Math.min(this.limits.idleDeadline(), this.limits.wallDeadline);
  }

  private limitPassed(): StopReason {
    return this.limits.clock.now() >= this.limits.wallDeadline ? 'wall-time' : 'idle';
  }

  private readonly onStop = (): void => {
    this.waiting?.stopped('user-stop');
  };

  private readonly onTimer = (): void => {
    this.cancelTimer = undefined;
    // With no call waiting the timer is not renewed: the next call arms it.
    if (!this.waiting) return;
    const { clock } = this.limits;
    const left = this.deadline() - clock.now();
    if (left > 0) this.cancelTimer = startTimer(clock, left, this.onTimer);
    else this.waiting.stopped(this.limitPassed());
  };

  private watchStop(): void {
    const { signal, stop } = this.limits;
    if (this.unwatchStop || (!signal && !stop)) return;
    const { onStop } = this;
    signal?.addEventListener('abort', onStop, { once: true });
    const unwatch = stop?.onStop(onStop);
    this.unwatchStop = () => {
      signal?.removeEventListener('abort', onStop);
      unwatch?.();
    };
  }
}

/**
 * One call waiting under the watch: it settles its `outcome` with the first of the work's result, its
 * failure, or a limit or the user's stop. The call settles its own promise rather than being awaited by
 * an async function around it, docs/decisions/0091.
 */
class WaitingCall<T> {
  readonly outcome: Promise<WithinOutcome<T>>;
  private settle: (outcome: WithinOutcome<T>) => void = () => undefined;
  private decided = false;

  constructor(
    private readonly watch: SharedRunWatch,
    private readonly controller: AbortController,
  ) {
    this.outcome = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  done(value: T): void {
    this.decide({ status: 'done', value });
  }

  failed(error: unknown): void {
    // Work that gave up because the user stopped it was stopped, not broken.
    if (this.watch.stoppedByUser()) this.decide({ status: 'stopped', reason: 'user-stop', started: true });
    else this.decide({ status: 'failed', error });
  }

  /** A limit passed or the user stopped: the work's signal is aborted and the call moves on without it. */
  stopped(reason: StopReason): void {
    if (this.decided) return;
    this.decide({ status: 'stopped', reason, started: true });
    this.controller.abort(
      reason === 'user-stop' ? this.watch.userStopReason() : new Error(`stopped: ${reason}`),
    );
  }

  private decide(outcome: WithinOutcome<T>): void {
    if (this.decided) return;
    this.decided = true;
    this.watch.ended(this as WaitingCall<unknown>);
    this.settle(outcome);
  }
}
