import type { SimulationCache } from '../../spec/index.js';
import { createRedisConnection, type RedisConnectionOptions } from './internal/create-redis-connection.js';

/** Options of {@link createRedisSimulationCache}. */
export interface RedisSimulationCacheOptions extends RedisConnectionOptions {
  /** Put before every key, so that several apps can share one Redis. Default `flowstack`. */
  prefix?: string;
}

/** The Redis `SimulationCache`, with where it keeps its entries. */
export interface RedisSimulationCache extends SimulationCache {
  readonly kind: 'redis';
  /** `host:port/db`, without credentials. */
  readonly address: string;
}

/**
 * The simulation cache shared by every process that uses one Redis (DESIGN.md §7): a prediction made by
 * one worker is reused by the others for its time to live, which Redis enforces (`SET … PX`). Values are
 * the redacted prediction texts the simulator hands it, so nothing secret is stored. When Redis cannot
 * answer, `get` and `set` reject with `RedisUnavailableError`; the simulator and the result cache treat
 * that as a miss, so an outage costs model calls, never a tool call.
 *
 * @example
 * import { createRedisSimulationCache } from 'flowstack/redis';
 * const simulate = createModelSimulator({ model, cache: createRedisSimulationCache() });
 */
export function createRedisSimulationCache(options: RedisSimulationCacheOptions = {}): RedisSimulationCache {
  const connection = createRedisConnection(options);
  const prefix = options.prefix ?? 'flowstack';
  const keyOf = (key: string) => `${prefix}:sim:${key}`;
  return {
    specVersion: 1,
    kind: 'redis',
    address: connection.address,
    async get(key) {
      const value = await connection.run((redis) => redis.get(keyOf(key)));
      return value ?? undefined;
    },
    async set(key, value, ttlMs) {
      const ttl = Math.ceil(ttlMs);
      // An entry that expires at once is no entry (Redis refuses PX 0); drop what was there, as memory does.
      await connection.run<unknown>((redis) =>
        ttl > 0 ? redis.set(keyOf(key), value, 'PX', ttl) : redis.del(keyOf(key)),
      );
    },
    close: () => connection.close(),
  };
}
