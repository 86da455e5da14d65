/**
 * In-process fan-out of observations to subscribers. The agent publishes only after the state an
 * observation describes is saved (DESIGN.md invariant 4); a listener that throws never breaks a turn.
 * Live progress (id 0) goes only to subscribers that ask for it.
 */
import type { Observation, ObservationType } from '../spec/index.js';
import type { ObservationOf } from './observation-data.js';

export type ObservationListener = (observation: Observation) => void;

/** Which observations a subscriber receives. */
export interface SubscribeOptions<T extends ObservationType = ObservationType> {
  /** One thread's events; all threads when left out. */
  threadId?: string;
  /** Only these types; all when left out. The listener's argument is typed accordingly. */
  types?: readonly T[];
  /** Also receive live progress (model calls, tools running): observations with id 0. */
  progress?: boolean;
}

/** Anything observations can be subscribed to: the bus, an agent, a Redis fan-out. */
export type SubscribeObservations = <T extends ObservationType = ObservationType>(
  listener: (observation: ObservationOf<T>) => void,
  options?: SubscribeOptions<T>,
) => () => void;

export interface ObservationBus {
  publish(observations: readonly Observation[]): void;
  /** Listens to observations as `options` select them. Returns the unsubscribe. */
  subscribe: SubscribeObservations;
  /** Whether a subscriber takes live progress of this thread now (so that none is built for nobody). */
  wantsProgress(threadId: string): boolean;
}

interface Entry {
  listener: ObservationListener;
  threadId: string | undefined;
  types: ReadonlySet<string> | undefined;
  progress: boolean;
}

export function createObservationBus(
  options: { onListenerError?: (error: unknown, observation: Observation) => void } = {},
): ObservationBus {
  const entries = new Set<Entry>();
  return {
    publish(observations) {
      for (const observation of observations) {
        for (const entry of entries) {
          if (entry.threadId !== undefined && entry.threadId !== observation.threadId) continue;
          if (observation.id === 0 && !entry.progress) continue;
          if (entry.types && !entry.types.has(observation.type)) continue;
          try {
            entry.listener(observation);
          } catch (error) {
            options.onListenerError?.(error, observation);
          }
        }
      }
    },
    wantsProgress(threadId) {
      for (const entry of entries)
        if (entry.progress && (entry.threadId === undefined || entry.threadId === threadId)) return true;
      return false;
    },
    subscribe(listener, subscribeOptions = {}) {
      const entry: Entry = {
        listener: listener as ObservationListener,
        threadId: subscribeOptions.threadId,
        types: subscribeOptions.types ? new Set(subscribeOptions.types) : undefined,
        progress: subscribeOptions.progress === true,
      };
      entries.add(entry);
      return () => {
        entries.delete(entry);
      };
    },
  };
}
