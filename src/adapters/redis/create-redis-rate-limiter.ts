import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ConfigurationError } from '../../errors/index.js';
import type { RateLimitDecision, RateLimiter, RateLimitRequest } from '../../spec/index.js';
import type { Clock } from '../../util/index.js';
import { createRedisConnection, type RedisConnectionOptions } from './internal/create-redis-connection.js';
import { slidingWindowScript, slidingWindowSha } from './internal/sliding-window-script.js';

/** Options of {@link createRedisRateLimiter}. */
export interface RedisRateLimiterOptions extends RedisConnectionOptions {
  /** Put before every key, so that several apps can share one Redis. Default `flowstack`. */
  prefix?: string;
  /**
   * Whose time decides the window. Left out, the Redis server's clock does, for every process alike, and
   * a request's `now` is ignored (process clocks drift apart). Given, the request's `now` (else this
   * clock) is used, as the in-memory limiter does: for tests, or one process.
   */
  clock?: Clock;
}

/** The Redis `RateLimiter`, with where it keeps its counters. */
export interface RedisRateLimiter extends RateLimiter {
  readonly kind: 'redis';
  /** `host:port/db`, without credentials. */
  readonly address: string;
}

/**
 * The rate limiter shared by every process and machine that uses one Redis (DESIGN.md §7): a
 * sliding-window log per key, checked and updated by one Lua script, so concurrent calls from any number
 * of processes never get more than the limit through, and a window is exact to the millisecond — a unit
 * frees exactly `windowMs` after it was taken, never at an hour's edge. When Redis cannot answer,
 * `consume` rejects with `RedisUnavailableError` and nothing is admitted: the limit fails closed. The
 * factory does no I/O; `ioredis` is loaded on first use.
 *
 * @example
 * import { createRedisRateLimiter } from 'flowstack/redis';
 * const agent = createAgent({ …, rateLimiter: createRedisRateLimiter({ url: process.env.REDIS_URL }) });
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions = {}): RedisRateLimiter {
  const connection = createRedisConnection(options);
  const prefix = options.prefix ?? 'flowstack';
  const clock = options.clock;
  // Members of a key's log must be unique even for calls in the same millisecond from many processes.
  const instance = randomBytes(6).toString('hex');
  let calls = 0;

  const evaluate = async (redis: Redis, key: string, args: string[]): Promise<unknown> => {
    try {
      return await redis.evalsha(slidingWindowSha, 1, key, ...args);
    } catch (error) {
      if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      return redis.eval(slidingWindowScript, 1, key, ...args);
    }
  };

  return {
    specVersion: 1,
    kind: 'redis',
    address: connection.address,
    async consume(request: RateLimitRequest): Promise<RateLimitDecision> {
      const { key, limit, windowMs } = request;
      if (!Number.isSafeInteger(limit) || limit < 0 || !Number.isSafeInteger(windowMs) || windowMs <= 0)
        throw new ConfigurationError({
          message: `Invalid rate limit for '${key}': limit must be a whole number ≥ 0 and windowMs a whole number > 0 (got ${limit} per ${windowMs} ms).`,
        });
      const now = clock ? String(request.now ?? clock.now()) : '';
      calls += 1;
      const member = `${instance}:${calls}`;
      const reply = await connection.run((redis) =>
        evaluate(redis, `${prefix}:rate:${key}`, [String(limit), String(windowMs), now, member]),
      );
      const [admitted, amount] = reply as [number, number];
      return admitted === 1
        ? { allowed: true, key, limit, remaining: amount }
        : { allowed: false, key, limit, remaining: 0, retryAfterMs: amount };
    },
    close: () => connection.close(),
  };
}
