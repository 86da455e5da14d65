export {
  createRedisEventFanout,
  type RedisEventFanout,
  type RedisEventFanoutOptions,
  type RelayOptions,
} from './create-redis-event-fanout.js';
export {
  createRedisRateLimiter,
  type RedisRateLimiter,
  type RedisRateLimiterOptions,
} from './create-redis-rate-limiter.js';
export {
  createRedisSimulationCache,
  type RedisSimulationCache,
  type RedisSimulationCacheOptions,
} from './create-redis-simulation-cache.js';
export type { RedisConnectionOptions } from './internal/create-redis-connection.js';
export { RedisUnavailableError } from './redis-unavailable-error.js';
