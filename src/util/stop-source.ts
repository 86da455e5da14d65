/**
 * A stop that may be asked for later, told to callbacks instead of through an `AbortSignal`. On Node 20
 * every `AbortSignal` gets hidden classes of its own (a new map, in old space, for each property set
 * after its prototype is swapped), and optimized code that met one is thrown away when it dies: a signal
 * made on every turn for a rare event (the turn's thread lease lost to another process) cost every turn
 * more than the rest of its lease (docs/decisions/0037-lease-stop-without-a-signal.md).
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
  let callbacks: Set<(reason: unknown) => void> | undefined;
  // Plain fields, not getters: an object literal with accessors is a slow dictionary object on Node 20.
  const controller: { stopped: boolean; reason: unknown } & Pick<StopController, 'onStop' | 'stop'> = {
    stopped: false,
    reason: undefined,
    onStop(onStop) {
      if (controller.stopped) {
        onStop(controller.reason);
        return noop;
      }
      callbacks ??= new Set();
      const registered = callbacks;
      registered.add(onStop);
      return () => {
        registered.delete(onStop);
      };
    },
    stop(reason) {
      if (controller.stopped) return;
      controller.stopped = true;
      controller.reason = reason;
      const due = callbacks ? [...callbacks] : [];
      callbacks = undefined;
      for (const callback of due) {
        try {
          callback(reason);
        } catch {
          // One callback's failure must not keep the others from stopping their work.
        }
      }
    },
  };
  return controller;
}

function noop(): void {}
