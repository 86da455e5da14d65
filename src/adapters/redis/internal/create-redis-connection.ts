import type { Redis, RedisOptions } from 'ioredis';
import { FlowstackError } from '../../../errors/index.js';
import { jitterDelayMs } from '../../../util/index.js';
import { RedisUnavailableError } from '../redis-unavailable-error.js';
import { describeRedisAddress } from './describe-redis-address.js';
import { loadIoredis } from './load-ioredis.js';

/** How every part of `flowstack/redis` reaches Redis. */
export interface RedisConnectionOptions {
  /**
   * A client of your own (for TLS, Sentinel, credentials …). It wins over `url`, and `close()` leaves it
   * open: whoever created a client ends it.
   */
  redis?: Redis;
  /** Where to connect when no `redis` is given. Default `process.env.REDIS_URL`, else `redis://127.0.0.1:6379`. */
  url?: string;
  /** How long one command may take before it fails with `RedisUnavailableError`. Default 5 s. */
  commandTimeoutMs?: number;
}

/** One lazily opened client and the error mapping shared by the limiter, the cache and the fan-out. */
export interface RedisConnection {
  /** `host:port/db`, without credentials. */
  readonly address: string;
  /**
   * Runs commands on the client, opening it on first use. Rejects with `RedisUnavailableError` when
   * Redis cannot answer in time, a `ConfigurationError` when `ioredis` is not installed.
   */
  run<T>(work: (redis: Redis) => Promise<T>): Promise<T>;
  /**
   * A second connection (for subscriber mode) that connects at once and whose commands wait for a
   * reconnect; the caller ends it.
   */
  duplicate(overrides?: RedisOptions): Promise<Redis>;
  close(): Promise<void>;
}

/** The driver's settings for a client flowstack owns: fail fast while Redis is away, reconnect for ever. */
export const ownClientOptions: RedisOptions = {
  lazyConnect: true,
  // A command sent while the connection is down fails at the next failed reconnect instead of waiting.
  maxRetriesPerRequest: 0,
  // Jittered, so that the processes a Redis restart cut off do not all come back at the same moment.
  retryStrategy: (attempt: number) => jitterDelayMs(Math.min(attempt * 100, 2_000)),
};

export function createRedisConnection(options: RedisConnectionOptions): RedisConnection {
  const url = options.url ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const given = options.redis;
  const address = given
    ? describeRedisAddress({ host: given.options.host, port: given.options.port, db: given.options.db })
    : describeRedisAddress({ url });
  const timeoutMs = options.commandTimeoutMs ?? 5_000;
  let lastConnectionError: Error | undefined;
  let opening: Promise<Redis> | undefined;
  let closed = false;

  const open = async (): Promise<Redis> => {
    if (given) return given;
    const { Redis } = await loadIoredis();
    const client = new Redis(url, { ...ownClientOptions, connectTimeout: timeoutMs });
    // Without a listener ioredis logs every failed reconnect; the last one explains the next rejection.
    client.on('error', (error: Error) => {
      lastConnectionError = error;
    });
    client.on('ready', () => {
      lastConnectionError = undefined;
    });
    return client;
  };

  const unavailable = (error: unknown): unknown => {
    if (FlowstackError.isInstance(error)) return error;
    const name = (error as { name?: unknown } | null)?.name;
    const reason =
      name === 'MaxRetriesPerRequestError' && lastConnectionError
        ? describeCause(lastConnectionError)
        : describeCause(error);
    return new RedisUnavailableError({ address, reason, cause: lastConnectionError ?? error });
  };

  return {
    address,
    async run(work) {
      if (closed) throw new RedisUnavailableError({ address, reason: 'the connection was closed' });
      opening ??= open();
      opening.catch(() => {
        opening = undefined; // a failed load is tried again by the next call
      });
      let timer: NodeJS.Timeout | undefined;
      try {
        const client = await opening;
        return await Promise.race([
          work(client),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
      } catch (error) {
        throw unavailable(error);
      } finally {
        clearTimeout(timer);
      }
    },
    async duplicate(overrides = {}) {
      const { Redis } = await loadIoredis();
      const settings = { maxRetriesPerRequest: null, lazyConnect: false, ...overrides };
      const client = given
        ? given.duplicate(settings)
        : new Redis(url, { ...ownClientOptions, connectTimeout: timeoutMs, ...settings });
      client.on('error', () => {});
      return client;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (given || !opening) return;
      const client = await opening.catch(() => undefined);
      if (!client) return;
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
}

/** The driver's reason; Node reports a refused dual-stack connect as an `AggregateError` with no message. */
function describeCause(cause: unknown): string {
  if (cause instanceof AggregateError && cause.message === '')
    return cause.errors.map((error) => describeCause(error)).join('; ');
  if (cause instanceof Error) return cause.message || (cause as { code?: string }).code || cause.name;
  return String(cause);
}
