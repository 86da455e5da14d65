/**
 * Scale-out settings from the environment (README "Scaling out"): `DATABASE_URL` puts threads in
 * PostgreSQL (schema `FLOWSTACK_PG_SCHEMA`, default `flowstack`) instead of the SQLite file, and
 * `REDIS_URL` sends turns through the BullMQ queue (key prefix `FLOWSTACK_QUEUE_PREFIX`, default
 * `flowstack`) to `flowstack worker` processes.
 */
import { createTurnQueue, type TurnQueue } from '../../adapters/bullmq/index.js';
import { createPostgresStore, type PostgresStore } from '../../adapters/postgres/index.js';
import {
  createRedisEventFanout,
  createRedisRateLimiter,
  type RedisEventFanout,
  type RedisRateLimiter,
} from '../../adapters/redis/index.js';
import type { TurnResult } from '../../agent/index.js';
import type { StateStore } from '../../spec/index.js';

export interface ScaleConfig {
  databaseUrl?: string;
  redisUrl?: string;
  schema: string;
  prefix: string;
}

export function readScaleConfig(env: NodeJS.ProcessEnv): ScaleConfig {
  const set = (value: string | undefined) =>
    value !== undefined && value.trim() !== '' ? value.trim() : undefined;
  const databaseUrl = set(env.DATABASE_URL);
  const redisUrl = set(env.REDIS_URL);
  return {
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(redisUrl ? { redisUrl } : {}),
    schema: set(env.FLOWSTACK_PG_SCHEMA) ?? 'flowstack',
    prefix: set(env.FLOWSTACK_QUEUE_PREFIX) ?? 'flowstack',
  };
}

/** The PostgreSQL store of `DATABASE_URL`, connected (fails fast on a wrong address). */
export async function openPostgresFromConfig(
  config: ScaleConfig & { databaseUrl: string },
): Promise<PostgresStore> {
  const store = createPostgresStore({ connectionString: config.databaseUrl, schema: config.schema });
  try {
    await store.ready();
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** The turn queue of `REDIS_URL`, connected. */
export async function openQueueFromConfig(
  config: ScaleConfig & { redisUrl: string },
): Promise<TurnQueue<TurnResult>> {
  const queue = createTurnQueue<TurnResult>({ redisUrl: config.redisUrl, prefix: config.prefix });
  try {
    await queue.ready();
    return queue;
  } catch (error) {
    await queue.close();
    throw error;
  }
}

/** What the processes of one deployment share through `REDIS_URL` besides the queue (ADRs 0020, 0021). */
export interface SharedRedisParts {
  /** Tool rate limits counted across every worker, failing closed when Redis is down. */
  rateLimiter: RedisRateLimiter;
  /** Every saved event (and live progress) of a thread, seen by every API process's streams. */
  fanout: RedisEventFanout;
  close(): Promise<void>;
}

/** The shared rate limiter and event fan-out of `REDIS_URL`, connected. */
export async function openSharedRedisParts(
  config: ScaleConfig & { redisUrl: string },
  store: StateStore,
): Promise<SharedRedisParts> {
  const rateLimiter = createRedisRateLimiter({ url: config.redisUrl, prefix: config.prefix });
  const fanout = createRedisEventFanout({ url: config.redisUrl, prefix: config.prefix, store });
  const close = async () => {
    await fanout.close();
    await rateLimiter.close();
  };
  try {
    await fanout.ready();
    return { rateLimiter, fanout, close };
  } catch (error) {
    await close();
    throw error;
  }
}
