import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel } from '../../test/index.js';
import { describeWithService, serviceAvailable } from '../../test/require-service.js';
import { createModelSimulator, defineTool } from '../../tool/index.js';
import { createRedisSimulationCache, RedisUnavailableError } from './index.js';

const url = process.env.FLOWSTACK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const available = await serviceAvailable('redis', url);
const prefix = `flowstack-test:sim:${process.pid}:${Date.now().toString(36)}`;

describeWithService({ kind: 'redis', url, available, describe }, 'createRedisSimulationCache', () => {
  const admin = available ? new Redis(url) : undefined;
  afterAll(async () => {
    if (!admin) return;
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length > 0) await admin.del(...keys);
    admin.disconnect();
  });

  it('shares an entry between two caches (two processes) and lets Redis expire it after its ttl', async () => {
    const writer = createRedisSimulationCache({ url, prefix });
    const reader = createRedisSimulationCache({ url, prefix });
    try {
      expect(await reader.get('simulation:abc')).toBeUndefined();
      await writer.set('simulation:abc', 'Sends one email to a customer; irreversible.', 300_000);
      expect(await reader.get('simulation:abc')).toBe('Sends one email to a customer; irreversible.');
      const ttl = await (admin as Redis).pttl(`${prefix}:sim:simulation:abc`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(300_000);
      await writer.set('simulation:abc', 'Replaced.', 1_000);
      expect(await reader.get('simulation:abc')).toBe('Replaced.');
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('a prediction one simulator (worker) made is reused by another without a model call', async () => {
    const tool = defineTool({
      name: 'transfer',
      description: 'Moves money.',
      input: z.object({ account: z.string() }),
      capability: 'privileged',
      execute: () => 'moved',
    });
    const prediction = 'Moves money irreversibly. Risk: the wrong account receives it.';
    const workers = [0, 1].map(() => {
      const model = createScriptedModel({
        steps: [{ match: { phase: 'simulate' }, text: prediction, repeat: true }],
      });
      const cache = createRedisSimulationCache({ url, prefix: `${prefix}:model` });
      return { model, cache, simulate: createModelSimulator({ model, cache }) };
    });
    try {
      const signal = new AbortController().signal;
      const redactedInput = { account: 'DE00 1234' };
      expect(await workers[0]?.simulate({ tool, redactedInput, signal })).toBe(prediction);
      expect(await workers[1]?.simulate({ tool, redactedInput, signal })).toBe(prediction);
      expect(workers.map((w) => w.model.calls.length)).toEqual([1, 0]);
    } finally {
      await Promise.all(workers.map((w) => w.cache.close()));
    }
  });

  it('treats a ttl of zero as "expired at once": the entry is gone', async () => {
    const cache = createRedisSimulationCache({ url, prefix });
    try {
      await cache.set('k', 'v', 60_000);
      await cache.set('k', 'w', 0);
      expect(await cache.get('k')).toBeUndefined();
    } finally {
      await cache.close();
    }
  });
});

describe('createRedisSimulationCache without a server', () => {
  it('rejects with RedisUnavailableError, which the simulator reads as a miss', async () => {
    const cache = createRedisSimulationCache({ url: 'redis://127.0.0.1:1' });
    const error = await cache.get('k').catch((caught: unknown) => caught);
    expect(RedisUnavailableError.isInstance(error)).toBe(true);
    await expect(cache.set('k', 'v', 1_000)).rejects.toThrow(/127\.0\.0\.1:1/);
    await cache.close();
  });
});
