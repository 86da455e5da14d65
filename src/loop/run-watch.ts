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
  const { clock, signal, stop } = limits;
  /** Ends the call that waits now, if one does. */
  let endWaiting: ((reason: StopReason) => void) | undefined;
  let cancelTimer: (() => void) | undefined;
  let unwatchStop: (() => void) | undefined;
  let closed = false;

  const deadline = () => Math.min(limits.idleDeadline(), limits.wallDeadline);
  const limitPassed = (): StopReason => (clock.now() >= limits.wallDeadline ? 'wall-time' : 'idle');
  const onStop = () => endWaiting?.('user-stop');

  const onTimer = () => {
    cancelTimer = undefined;
    // With no call waiting the timer is not renewed: the next call arms it.
    if (!endWaiting) return;
    const left = deadline() - clock.now();
    if (left > 0) cancelTimer = startTimer(clock, left, onTimer);
    else endWaiting(limitPassed());
  };

  const watchStop = () => {
    if (unwatchStop || (!signal && !stop)) return;
    signal?.addEventListener('abort', onStop, { once: true });
    const unwatch = stop?.onStop(onStop);
    unwatchStop = () => {
      signal?.removeEventListener('abort', onStop);
      unwatch?.();
    };
  };

  return {
    async wait<T>(controller: AbortController, work: (signal: AbortSignal) => Promise<T>) {
      if (signal?.aborted || stop?.stopped) return { status: 'stopped', reason: 'user-stop', started: false };
      const left = deadline() - clock.now();
      if (left <= 0) return { status: 'stopped', reason: limitPassed(), started: false };
      watchStop();
      if (!cancelTimer) cancelTimer = startTimer(clock, left, onTimer);
      const outcome = await new Promise<WithinOutcome<T>>((resolve) => {
        endWaiting = (reason) => resolve({ status: 'stopped', reason, started: true });
        // The work begins once its limits and stop are watched.
        beginWork(() => work(controller.signal), {
          done: (value) => resolve({ status: 'done', value }),
          failed: (error) => resolve({ status: 'failed', error }),
        });
      });
      endWaiting = undefined;
      // A call made after the run ended takes back what it armed.
      if (closed) this.close();
      if (outcome.status === 'stopped') {
        controller.abort(
          outcome.reason === 'user-stop'
            ? signal?.aborted
              ? signal.reason
              : stop?.reason
            : new Error(`stopped: ${outcome.reason}`),
        );
        return outcome;
      }
      // Work that gave up because the user stopped it was stopped, not broken.
      if (outcome.status === 'failed' && (signal?.aborted || stop?.stopped))
        return { status: 'stopped', reason: 'user-stop', started: true };
      return outcome;
    },
    close() {
      closed = true;
      cancelTimer?.();
      cancelTimer = undefined;
      unwatchStop?.();
      unwatchStop = undefined;
    },
  };
}
