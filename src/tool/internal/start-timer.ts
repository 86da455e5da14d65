/**
 * A cancellable timer on an injected clock: the clock's own `setTimer` when it has one (a plain
 * `setTimeout` for the system clock), else `sleep` with a signal. Returns the cancel function.
 */
import type { Clock } from '../../util/index.js';

const cancelled = new Error('timer cancelled');

export function startTimer(clock: Clock, ms: number, callback: () => void): () => void {
  if (clock.setTimer) return clock.setTimer(ms, callback);
  const controller = new AbortController();
  clock.sleep(ms, controller.signal).then(callback, () => undefined);
  return () => controller.abort(cancelled);
}
