/**
 * The rate-limiter contract, version 1 (DESIGN.md §4–§5, §7). The tool pipeline takes one unit per call
 * from each limit that applies; an in-memory limiter serves one process, a Redis limiter (scale-out)
 * serves many. Every implementation counts a sliding window: a call made at time `t` counts against
 * the limit until `t + windowMs`, so no burst at a window boundary can pass twice the limit.
 */

export interface RateLimitRequest {
  /** What is counted, e.g. `tool:send_email:user-42`. */
  key: string;
  /** Units allowed per window; `take` refuses the unit that would exceed it. */
  limit: number;
  windowMs: number;
  /** The caller's clock; limiters never read the wall clock themselves. */
  now: number;
}

export type RateLimitDecision =
  | { allowed: true; remaining: number; resetAt: number }
  | { allowed: false; remaining: 0; retryAfterMs: number; resetAt: number };

export interface RateLimiterV1 {
  readonly specVersion: 1;
  readonly kind: string;
  /**
   * Atomically takes one unit under `key` if fewer than `limit` were taken in the window ending at
   * `now`. Concurrent takes never admit more than `limit`. Rejects only when the limiter cannot
   * answer (a lost connection); the pipeline then refuses the call (fails closed).
   */
  take(request: RateLimitRequest): Promise<RateLimitDecision>;
}

export type RateLimiter = RateLimiterV1;
