import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../../errors/index.js';
import { describeRateLimiterConformance } from '../../test/rate-limiter-conformance.js';
import { describeWithService, serviceAvailable } from '../../test/require-service.js';
import { call, createTestContext } from '../../tool/fixtures/batch-context.js';
import { defineTool, executeToolBatch } from '../../tool/index.js';
import { startTcpProxy } from './fixtures/tcp-proxy.js';
import { createRedisRateLimiter, RedisUnavailableError } from './index.js';

const url = process.env.FLOWSTACK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const available = await serviceAvailable('redis', url);
const prefix = `flowstack-test:${process.pid}:${Date.now().toString(36)}`;
const hour = 3_600_000;

describeWithService({ kind: 'redis', url, available, describe }, 'createRedisRateLimiter', () => {
  describeRateLimiterConformance(
    'conformance (injected clock)',
    (clock) => createRedisRateLimiter({ url, prefix, clock }),
    { describe, it },
  );

  let admin: Redis | undefined;
  afterAll(async () => {
    admin ??= new Redis(url);
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length > 0) await admin.del(...keys);
    admin.disconnect();
  });

  it('on the Redis server clock, lets exactly the limit through and says when a unit frees', async () => {
    const limiter = createRedisRateLimiter({ url, prefix });
    try {
      const decisions = await Promise.all(
        Array.from({ length: 30 }, () => limiter.consume({ key: 'server-clock', limit: 7, windowMs: hour })),
      );
      const allowed = decisions.filter((d) => d.allowed);
      expect(allowed).toHaveLength(7);
      expect(allowed.map((d) => d.remaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      const refused = decisions.find((d) => !d.allowed);
      expect(refused?.allowed === false && refused.retryAfterMs).toBeGreaterThan(0);
      expect(refused?.allowed === false && refused.retryAfterMs).toBeLessThanOrEqual(hour);
      // The process's own `now` is ignored: the server's clock counts for every process alike.
      const early = await limiter.consume({ key: 'server-clock', limit: 7, windowMs: hour, now: 0 });
      expect(early.allowed).toBe(false);
    } finally {
      await limiter.close();
    }
  });

  it('keeps each key in one sorted set that expires a window after its last admitted call', async () => {
    const limiter = createRedisRateLimiter({ url, prefix: `${prefix}:ttl` });
    admin ??= new Redis(url);
    try {
      await limiter.consume({ key: 'k', limit: 5, windowMs: 60_000 });
      await limiter.consume({ key: 'k', limit: 5, windowMs: 60_000 });
      expect(await admin.zcard(`${prefix}:ttl:rate:k`)).toBe(2);
      const ttl = await admin.pttl(`${prefix}:ttl:rate:k`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      await limiter.close();
    }
  });

  it('works on a client of its own, leaves it open, and reloads its script after SCRIPT FLUSH', async () => {
    const client = new Redis(url);
    const limiter = createRedisRateLimiter({ redis: client, prefix });
    try {
      expect((await limiter.consume({ key: 'own', limit: 1, windowMs: hour })).allowed).toBe(true);
      await client.script('FLUSH');
      expect((await limiter.consume({ key: 'own', limit: 1, windowMs: hour })).allowed).toBe(false);
      await limiter.close();
      expect(await client.ping()).toBe('PONG');
    } finally {
      client.disconnect();
    }
  });

  it('refuses a nonsensical limit with a typed error, before asking Redis', async () => {
    const limiter = createRedisRateLimiter({ url: 'redis://127.0.0.1:1', prefix });
    for (const [limit, windowMs] of [
      [Number.NaN, 1_000],
      [-1, 1_000],
      [1.5, 1_000],
      [1, 0],
    ] as const) {
      const error = await limiter.consume({ key: 'k', limit, windowMs }).catch((caught: unknown) => caught);
      expect(ConfigurationError.isInstance(error)).toBe(true);
    }
    await limiter.close();
  });

  it('fails closed with RedisUnavailableError when Redis goes away, and answers again when it is back', async () => {
    const proxy = await startTcpProxy(url);
    const limiter = createRedisRateLimiter({ url: proxy.url, prefix, commandTimeoutMs: 2_000 });
    try {
      expect((await limiter.consume({ key: 'outage', limit: 2, windowMs: hour })).allowed).toBe(true);
      await proxy.stop();
      const error = await limiter
        .consume({ key: 'outage', limit: 2, windowMs: hour })
        .catch((caught: unknown) => caught);
      expect(RedisUnavailableError.isInstance(error)).toBe(true);
      expect((error as RedisUnavailableError).code).toBe('redis_unavailable');
      expect((error as RedisUnavailableError).address).toBe(proxy.address);
      const reconnected = proxy.nextConnection();
      await proxy.start();
      await reconnected;
      // The failed call took no unit: one is left.
      const decision = await limiter.consume({ key: 'outage', limit: 2, windowMs: hour });
      expect(decision).toMatchObject({ allowed: true, remaining: 0 });
    } finally {
      await limiter.close();
      await proxy.stop();
    }
  });
});

describe('createRedisRateLimiter without a server', () => {
  it('fails closed with a typed error naming the address (never the password)', async () => {
    const limiter = createRedisRateLimiter({ url: 'redis://app:s3cret@127.0.0.1:1/2' });
    expect(limiter.address).toBe('127.0.0.1:1/2');
    const error = await limiter
      .consume({ key: 'k', limit: 1, windowMs: 1_000 })
      .catch((caught: unknown) => caught);
    expect(RedisUnavailableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('127.0.0.1:1/2');
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as Error).message).not.toContain('s3cret');
    expect(JSON.stringify(error)).not.toContain('s3cret');
    await limiter.close();
  });

  it('through the tool pipeline: the call is refused with rate_limit and never runs', async () => {
    const runs: number[] = [];
    const tool = defineTool({
      name: 'send_sms',
      description: 'Sends a text message.',
      input: z.object({}),
      rateLimit: { limit: 20, windowMs: hour },
      execute: () => runs.push(1),
    });
    const limiter = createRedisRateLimiter({ url: 'redis://127.0.0.1:1' });
    const [result] = await executeToolBatch(
      [call('send_sms')],
      createTestContext([tool], { rateLimiter: limiter }),
    );
    await limiter.close();
    expect(runs).toEqual([]);
    expect(result).toMatchObject({ status: 'error', error: { category: 'rate_limit', retryable: false } });
    expect(result?.contextText).toContain('Redis at 127.0.0.1:1 cannot answer');
  });
});
