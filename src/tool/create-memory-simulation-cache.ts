/**
 * The in-process `SimulationCache`: entries expire on the caller's clock, and the least recently
 * written entry goes first when the cache is full.
 */
import type { SimulationCache } from '../spec/index.js';

export interface MemorySimulationCacheOptions {
  /** Entries kept at most (default 1,000). */
  maxEntries?: number;
}

export function createMemorySimulationCache(options: MemorySimulationCacheOptions = {}): SimulationCache {
  const maxEntries = options.maxEntries ?? 1_000;
  const entries = new Map<string, { value: string; expiresAt: number }>();
  return {
    specVersion: 1,
    kind: 'memory',
    get(key, now) {
      const entry = entries.get(key);
      if (!entry) return Promise.resolve(undefined);
      if (entry.expiresAt <= now) {
        entries.delete(key);
        return Promise.resolve(undefined);
      }
      return Promise.resolve(entry.value);
    },
    set({ key, value, ttlMs, now }) {
      entries.delete(key);
      entries.set(key, { value, expiresAt: now + ttlMs });
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      return Promise.resolve();
    },
  };
}
