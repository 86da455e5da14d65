/**
 * The cache of anticipatory simulations, version 1 (seed 003: "same call + context → same prediction",
 * kept 5 minutes). Keys are hashes of the redacted call and context, values the redacted prediction text:
 * nothing secret is ever stored (DESIGN.md invariant 8).
 *
 * Note for the rebase: issue 9 (scale-out) defined this type because the tool pipeline's (issue 3) was not
 * on `main` yet. Whichever of the two lands second reconciles the names.
 */
export interface SimulationCacheV1 {
  readonly specVersion: 1;
  readonly kind: string;
  /** The cached prediction, or `undefined` when there is none or it expired. */
  get(key: string): Promise<string | undefined>;
  /** Stores a prediction for `ttlMs` milliseconds. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  close(): Promise<void>;
}

export type SimulationCache = SimulationCacheV1;
