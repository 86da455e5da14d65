/**
 * A stop that may be asked for later, told to callbacks instead of through an `AbortSignal`: every turn
 * holds one for a rare event (its thread lease lost to another process), and an `AbortSignal` made per turn
 * for it cost more than the rest of the lease (docs/decisions/0037-lease-stop-without-a-signal.md).
 */
export interface StopSource {
  readonly stopped: boolean;
  /** Why it stopped; `undefined` until it has. */
  readonly reason: unknown;
  /**
   * Calls `onStop` once, when it stops (at once if it already has). The returned function takes the
   * callback back; call it when the work it would stop is over.
   */
  onStop(onStop: (reason: unknown) => void): () => void;
}

/** A `StopSource` and the one who stops it. */
export interface StopController extends StopSource {
  /** Stops, once: later calls change nothing. A callback that throws does not keep the others from running. */
  stop(reason: unknown): void;
}

export function createStopController(): StopController {
  return new Stop();
}

class Stop implements StopController {
  stopped = false;
  reason: unknown = undefined;
  private callbacks: Set<(reason: unknown) => void> | undefined = undefined;

  onStop(onStop: (reason: unknown) => void): () => void {
    if (this.stopped) {
      onStop(this.reason);
      return noop;
    }
    this.callbacks ??= new Set();
    const callbacks = this.callbacks;
    callbacks.add(onStop);
    return () => {
      callbacks.delete(onStop);
    };
  }

  stop(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.reason = reason;
    const due = this.callbacks ? [...this.callbacks] : [];
    this.callbacks = undefined;
    for (const callback of due) {
      try {
        callback(reason);
      } catch {
        // One callback's failure must not keep the others from stopping their work.
      }
    }
  }
}

function noop(): void {}
