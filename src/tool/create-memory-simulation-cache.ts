/**
 * The in-process `SimulationCache`: entries expire on the given clock, and the least recently written
 * entry goes first when the cache is full. Many processes share a Redis cache (`flowstack/redis`).
 */
import type { SimulationCache } from '../spec/index.js';
import { type Clock, systemClock } from '../util/index.js';

export interface MemorySimulationCacheOptions {
  /** Decides expiry; defaults to the system clock. */
  clock?: Clock;
  /** Entries kept at most (default 1,000). */
  maxEntries?: number;
}

export function createMemorySimulationCache(options: MemorySimulationCacheOptions = {}): SimulationCache {
  const clock = options.clock ?? systemClock;
  const maxEntries = options.maxEntries ?? 1_000;
  const entries = new Map<string, { value: string; expiresAt: number }>();
  return {
    specVersion: 1,
    kind: 'memory',
    get(key) {
      const entry = entries.get(key);
      if (!entry) return Promise.resolve(undefined);
      if (entry.expiresAt <= clock.now()) {
        entries.delete(key);
        return Promise.resolve(undefined);
      }
      return Promise.resolve(entry.value);
    },
    set(key, value, ttlMs) {
      entries.delete(key);
      entries.set(key, { value, expiresAt: clock.now() + ttlMs });
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      return Promise.resolve();
    },
    close() {
      entries.clear();
      return Promise.resolve();
    },
  };
}
