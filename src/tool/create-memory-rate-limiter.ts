/**
 * The in-process `RateLimiter`: a sliding-window log per key. Each key keeps the times of the calls
 * admitted in its window, oldest first; `consume` drops the expired ones and admits a new call only
 * below the limit. The check and the update happen in one synchronous step, so concurrent calls in this
 * process never get more than the limit through. Many processes share a Redis limiter
 * (`flowstack/redis`) instead.
 */
import { ConfigurationError } from '../errors/index.js';
import type { RateLimitDecision, RateLimiter, RateLimitRequest } from '../spec/index.js';
import { type Clock, systemClock } from '../util/index.js';

export interface MemoryRateLimiterOptions {
  /** The time of a request that brings no `now`. Defaults to the system clock. */
  clock?: Clock;
  /** Keys kept at most; the least recently used key is forgotten past it. Default 10,000. */
  maxKeys?: number;
}

interface Window {
  /** Times of the admitted calls, oldest first; `head` is the first still counted. */
  times: number[];
  head: number;
}

/**
 * @example
 * const limiter = createMemoryRateLimiter();
 * await limiter.consume({ key: 'tool:send_email:*', limit: 20, windowMs: 3_600_000, now: Date.now() });
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): RateLimiter {
  const clock = options.clock ?? systemClock;
  const maxKeys = options.maxKeys ?? 10_000;
  const windows = new Map<string, Window>();

  function consumeNow(request: RateLimitRequest, now: number): RateLimitDecision {
    const { key, limit, windowMs } = request;
    let window = windows.get(key);
    if (window) windows.delete(key);
    else window = { times: [], head: 0 };
    windows.set(key, window); // most recently used last
    if (windows.size > maxKeys) {
      const oldest = windows.keys().next().value;
      if (oldest !== undefined) windows.delete(oldest);
    }
    const { times } = window;
    // A call admitted at t counts while now < t + windowMs.
    while (window.head < times.length && (times[window.head] as number) + windowMs <= now) window.head++;
    if (window.head > 64 && window.head * 2 > times.length) {
      times.splice(0, window.head);
      window.head = 0;
    }
    const used = times.length - window.head;
    if (used >= limit) {
      // The call whose expiry brings the count below the limit; with a zero limit, none ever does.
      const freeing = limit > 0 ? (times[window.head + used - limit] as number) : now;
      return {
        allowed: false,
        key,
        limit,
        remaining: 0,
        retryAfterMs: Math.max(1, freeing + windowMs - now),
      };
    }
    times.push(now);
    return { allowed: true, key, limit, remaining: limit - used - 1 };
  }

  return {
    specVersion: 1,
    kind: 'memory',
    consume: (request) => {
      const { key, limit, windowMs } = request;
      if (!Number.isSafeInteger(limit) || limit < 0 || !Number.isSafeInteger(windowMs) || windowMs <= 0)
        return Promise.reject(
          new ConfigurationError({
            message: `Invalid rate limit for '${key}': limit must be a whole number ≥ 0 and windowMs a whole number > 0 (got ${limit} per ${windowMs} ms).`,
          }),
        );
      return Promise.resolve(consumeNow(request, request.now ?? clock.now()));
    },
    close: () => {
      windows.clear();
      return Promise.resolve();
    },
  };
}
