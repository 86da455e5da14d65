/**
 * The Redis side of a turn queue or worker: loads the drivers, opens flowstack's own Redis client (for
 * the per-thread order), and checks that Redis answers, so a wrong `REDIS_URL` fails at start-up with a
 * `QueueUnavailableError` instead of hanging on BullMQ's reconnect loop.
 */
import type { Redis } from 'ioredis';
import { jitterDelayMs } from '../../../util/index.js';
import { QueueUnavailableError } from '../queue-unavailable-error.js';
import type { TurnQueueConnection } from '../turn-job.js';
import { describeServiceUrl } from './describe-service-url.js';
import { type ImportQueueDrivers, loadQueueDrivers, type QueueDrivers } from './load-bullmq.js';
import { createThreadOrder, type ThreadOrder } from './thread-order.js';

export interface OpenQueue {
  drivers: QueueDrivers;
  redis: Redis;
  order: ThreadOrder;
  /** Options for BullMQ's own connections (it opens and closes them). */
  bullmqOptions: { connection: { url: string; maxRetriesPerRequest: null }; prefix: string };
  address: string;
}

export async function openQueue(
  connection: Required<TurnQueueConnection>,
  importDrivers?: ImportQueueDrivers,
): Promise<OpenQueue> {
  const drivers = await loadQueueDrivers(importDrivers);
  const address = describeServiceUrl(connection.redisUrl);
  const redis = new drivers.ioredis.Redis(connection.redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    connectTimeout: 5_000,
    // Give up connecting at start-up; once connected, reconnect as ioredis does.
    retryStrategy: (times) => (times > 3 ? null : jitterDelayMs(Math.min(times * 200, 1_000))),
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new QueueUnavailableError({ address, cause: error });
  }
  return {
    drivers,
    redis,
    order: createThreadOrder(redis, `${connection.prefix}:${connection.queueName}:flowstack`),
    bullmqOptions: {
      connection: { url: connection.redisUrl, maxRetriesPerRequest: null },
      prefix: connection.prefix,
    },
    address,
  };
}
