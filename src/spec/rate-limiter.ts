/**
 * The rate limiter contract, version 1 (seed 003 rate limits; DESIGN.md §5 defaults). The tool pipeline's
 * rate-limit stage asks a limiter before a call runs; the in-memory limiter serves one process and
 * `flowstack/redis` serves many.
 *
 * Note for the rebase: issue 9 (scale-out) defined this type because the tool pipeline's (issue 3) was not
 * on `main` yet. Whichever of the two lands second reconciles the names.
 */

/** One call that wants to pass a limit. */
export interface RateLimitRequest {
  /** What is counted, e.g. `tool:send_email` or `level:privileged`. */
  key: string;
  /** Calls allowed in any window of `windowMs`. */
  limit: number;
  windowMs: number;
  /**
   * The time of the call, from the caller's clock. A shared limiter may ignore it in favour of one clock
   * for all processes (the Redis limiter uses the Redis server's clock unless given a clock of its own).
   */
  now?: number;
}

/**
 * Whether the call may run. A sliding window: a call at time `t` counts the calls allowed in
 * `(t - windowMs, t]`, so no window of `windowMs` ever holds more than `limit` calls, including across
 * the edge of an hour.
 */
export type RateLimitDecision =
  | { allowed: true; key: string; limit: number; remaining: number }
  | { allowed: false; key: string; limit: number; remaining: 0; retryAfterMs: number };

export interface RateLimiterV1 {
  readonly specVersion: 1;
  readonly kind: string;
  /**
   * Counts the call if the limit allows it, atomically with the check, across every process that shares
   * the limiter. Rejects (never allows) when the limiter cannot decide, e.g. its server is down: a rate
   * limit fails closed.
   */
  consume(request: RateLimitRequest): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export type RateLimiter = RateLimiterV1;
