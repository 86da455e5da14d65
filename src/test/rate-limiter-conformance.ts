/**
 * The conformance suite every `RateLimiter` must pass: the in-memory one, the Redis one, and any a user
 * writes. Like the store suite it uses `node:assert/strict` and registers with any runner's `describe`
 * and `it`. Each case gets a fresh key prefix, so one limiter (or one Redis database) serves all cases.
 */
import assert from 'node:assert/strict';
import type { RateLimiter } from '../spec/index.js';

export interface RateLimiterConformanceCase {
  name: string;
  /** `key(name)` gives a key unique to this run of the case. */
  run(limiter: RateLimiter, key: (name: string) => string): Promise<void>;
}

const hour = 3_600_000;
const t0 = 1_700_000_000_000;

export const rateLimiterConformanceCases: readonly RateLimiterConformanceCase[] = [
  {
    name: 'admits exactly the limit out of many concurrent takes',
    async run(limiter, key) {
      const k = key('burst');
      const decisions = await Promise.all(
        Array.from({ length: 50 }, () => limiter.take({ key: k, limit: 20, windowMs: hour, now: t0 })),
      );
      assert.equal(decisions.filter((d) => d.allowed).length, 20);
      assert.equal(decisions.filter((d) => !d.allowed).length, 30);
    },
  },
  {
    name: 'counts remaining units down and names when the window frees one',
    async run(limiter, key) {
      const k = key('remaining');
      const first = await limiter.take({ key: k, limit: 3, windowMs: hour, now: t0 });
      const second = await limiter.take({ key: k, limit: 3, windowMs: hour, now: t0 + 10 });
      const third = await limiter.take({ key: k, limit: 3, windowMs: hour, now: t0 + 20 });
      assert.deepEqual(
        [first, second, third].map((d) => d.allowed && d.remaining),
        [2, 1, 0],
      );
      const refused = await limiter.take({ key: k, limit: 3, windowMs: hour, now: t0 + 30 });
      assert.equal(refused.allowed, false);
      assert.equal(refused.allowed === false && refused.retryAfterMs, hour - 30);
      assert.equal(refused.resetAt, t0 + hour);
    },
  },
  {
    name: 'is a sliding window: a unit frees exactly windowMs after it was taken, not at a boundary',
    async run(limiter, key) {
      const k = key('sliding');
      const take = (now: number) => limiter.take({ key: k, limit: 2, windowMs: hour, now });
      assert.equal((await take(t0)).allowed, true);
      assert.equal((await take(t0 + hour - 1)).allowed, true);
      // A fixed hourly window would reset here and admit two more: a burst of four in two milliseconds.
      assert.equal((await take(t0 + hour - 1)).allowed, false);
      assert.equal((await take(t0 + hour)).allowed, true);
      assert.equal((await take(t0 + hour)).allowed, false);
      assert.equal((await take(t0 + 2 * hour - 2)).allowed, false);
      assert.equal((await take(t0 + 2 * hour - 1)).allowed, true);
    },
  },
  {
    name: 'refused takes do not count',
    async run(limiter, key) {
      const k = key('refused');
      assert.equal((await limiter.take({ key: k, limit: 1, windowMs: 1_000, now: t0 })).allowed, true);
      for (let i = 1; i < 10; i++)
        assert.equal(
          (await limiter.take({ key: k, limit: 1, windowMs: 1_000, now: t0 + i * 10 })).allowed,
          false,
        );
      assert.equal(
        (await limiter.take({ key: k, limit: 1, windowMs: 1_000, now: t0 + 1_000 })).allowed,
        true,
      );
    },
  },
  {
    name: 'keeps keys apart',
    async run(limiter, key) {
      const a = key('a');
      const b = key('b');
      assert.equal((await limiter.take({ key: a, limit: 1, windowMs: hour, now: t0 })).allowed, true);
      assert.equal((await limiter.take({ key: a, limit: 1, windowMs: hour, now: t0 })).allowed, false);
      assert.equal((await limiter.take({ key: b, limit: 1, windowMs: hour, now: t0 })).allowed, true);
    },
  },
  {
    name: 'a limit of zero refuses everything',
    async run(limiter, key) {
      const decision = await limiter.take({ key: key('zero'), limit: 0, windowMs: hour, now: t0 });
      assert.equal(decision.allowed, false);
    },
  },
];

/**
 * Registers the suite with a test runner.
 *
 * @example
 * import { describe, it } from 'vitest';
 * import { describeRateLimiterConformance } from 'flowstack/test';
 * describeRateLimiterConformance('redis limiter', () => createRedisRateLimiter({ redis }), { describe, it });
 */
export function describeRateLimiterConformance(
  name: string,
  createLimiter: () => RateLimiter | Promise<RateLimiter>,
  runner: {
    describe(name: string, body: () => void): unknown;
    it(name: string, body: () => Promise<void>): unknown;
  },
): void {
  runner.describe(name, () => {
    for (const testCase of rateLimiterConformanceCases) {
      runner.it(testCase.name, async () => {
        const prefix = `conformance:${Date.now().toString(36)}:${Math.random().toString(36).slice(2)}`;
        await testCase.run(await createLimiter(), (suffix) => `${prefix}:${suffix}`);
      });
    }
  });
}
