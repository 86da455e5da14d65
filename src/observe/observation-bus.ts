/**
 * In-process fan-out of observations to subscribers. The agent publishes only after the state an
 * observation describes is saved (DESIGN.md invariant 4); a listener that throws never breaks a turn.
 */
import type { Observation } from '../spec/index.js';

export type ObservationListener = (observation: Observation) => void;

export interface ObservationBus {
  publish(observations: readonly Observation[]): void;
  /** Listens to one thread's events, or to all when `threadId` is left out. Returns the unsubscribe. */
  subscribe(listener: ObservationListener, options?: { threadId?: string }): () => void;
}

export function createObservationBus(
  options: { onListenerError?: (error: unknown) => void } = {},
): ObservationBus {
  const listeners = new Set<{ listener: ObservationListener; threadId?: string }>();
  return {
    publish(observations) {
      for (const observation of observations) {
        for (const entry of listeners) {
          if (entry.threadId !== undefined && entry.threadId !== observation.threadId) continue;
          try {
            entry.listener(observation);
          } catch (error) {
            options.onListenerError?.(error);
          }
        }
      }
    },
    subscribe(listener, subscribeOptions = {}) {
      const entry =
        subscribeOptions.threadId === undefined
          ? { listener }
          : { listener, threadId: subscribeOptions.threadId };
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
  };
}
