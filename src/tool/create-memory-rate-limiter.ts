/**
 * The in-process `RateLimiter`: a sliding-window log per key. Each key keeps the times of the units
 * taken in its window, oldest first; `take` drops the expired ones and admits a new unit only below the
 * limit. The check and the update happen in one synchronous step, so concurrent calls in this process
 * never admit more than the limit. Many processes need a shared limiter (Redis, scale-out).
 */
import type { RateLimitDecision, RateLimiter, RateLimitRequest } from '../spec/index.js';

export interface MemoryRateLimiterOptions {
  /** Keys kept at most; the least recently used key is forgotten past it. Default 10,000. */
  maxKeys?: number;
}

interface Window {
  /** Times of the units taken, oldest first; `head` is the first still counted. */
  times: number[];
  head: number;
}

/**
 * @example
 * const limiter = createMemoryRateLimiter();
 * await limiter.take({ key: 'tool:send_email:*', limit: 20, windowMs: 3_600_000, now: Date.now() });
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): RateLimiter {
  const maxKeys = options.maxKeys ?? 10_000;
  const windows = new Map<string, Window>();

  function takeNow(request: RateLimitRequest): RateLimitDecision {
    const { key, limit, windowMs, now } = request;
    let window = windows.get(key);
    if (window) windows.delete(key);
    else window = { times: [], head: 0 };
    windows.set(key, window); // most recently used last
    if (windows.size > maxKeys) {
      const oldest = windows.keys().next().value;
      if (oldest !== undefined) windows.delete(oldest);
    }
    const { times } = window;
    // A unit taken at t counts while now < t + windowMs.
    while (window.head < times.length && (times[window.head] as number) + windowMs <= now) window.head++;
    if (window.head > 64 && window.head * 2 > times.length) {
      times.splice(0, window.head);
      window.head = 0;
    }
    const used = times.length - window.head;
    if (used >= limit) {
      // The unit whose expiry brings the count below the limit; with a zero limit, none ever does.
      const freeing = limit > 0 ? (times[window.head + used - limit] as number) : now;
      const resetAt = freeing + windowMs;
      return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, resetAt - now), resetAt };
    }
    times.push(now);
    const first = times[window.head] as number;
    return { allowed: true, remaining: limit - used - 1, resetAt: first + windowMs };
  }

  return {
    specVersion: 1,
    kind: 'memory',
    take: (request) => {
      if (!Number.isFinite(request.limit) || request.limit < 0 || !(request.windowMs > 0))
        return Promise.reject(new RangeError(`Invalid rate limit for '${request.key}'.`));
      return Promise.resolve(takeNow(request));
    },
  };
}
