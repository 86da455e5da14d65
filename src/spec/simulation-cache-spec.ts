/**
 * Where anticipatory simulations are kept (seed 003: five minutes, same call → same prediction),
 * version 1. In memory for one process; Redis for many (DESIGN.md §7). Keys are hashes of the
 * redacted call and values are redacted text, so a cache never holds a secret.
 */
export interface SimulationCacheV1 {
  readonly specVersion: 1;
  readonly kind: string;
  /** The value stored under `key` unless it expired at `now`. */
  get(key: string, now: number): Promise<string | undefined>;
  set(entry: { key: string; value: string; ttlMs: number; now: number }): Promise<void>;
}

export type SimulationCache = SimulationCacheV1;
