/**
 * The conformance suite every `RateLimiter` must pass: the in-memory one, the Redis one, and any a user
 * writes. Like the store suite it uses `node:assert/strict` and registers with any runner's `describe`
 * and `it`. Each case gets a fresh key prefix, so one limiter (or one Redis database) serves all cases.
 * Time is the suite's: `createLimiter` receives the clock the cases move, and every request also carries
 * it as `now`, so a limiter may read either.
 */
import assert from 'node:assert/strict';
import { ConfigurationError } from '../errors/index.js';
import type { RateLimiter } from '../spec/index.js';
import type { Clock } from '../util/index.js';

/** A clock the cases set; `sleep` is not used by limiters and resolves at once. */
export interface ConformanceClock extends Clock {
  set(now: number): void;
}

export interface RateLimiterConformanceCase {
  name: string;
  /** `key(name)` gives a key unique to this run of the case. */
  run(limiter: RateLimiter, clock: ConformanceClock, key: (name: string) => string): Promise<void>;
}

const hour = 3_600_000;
const t0 = 1_700_000_000_000;

export const rateLimiterConformanceCases: readonly RateLimiterConformanceCase[] = [
  {
    name: 'lets exactly the limit through out of many concurrent calls',
    async run(limiter, clock, key) {
      const k = key('burst');
      const decisions = await Promise.all(
        Array.from({ length: 50 }, () =>
          limiter.consume({ key: k, limit: 20, windowMs: hour, now: clock.now() }),
        ),
      );
      assert.equal(decisions.filter((d) => d.allowed).length, 20);
      assert.equal(decisions.filter((d) => !d.allowed).length, 30);
    },
  },
  {
    name: 'counts remaining calls down and says how long until one is free',
    async run(limiter, clock, key) {
      const k = key('remaining');
      const consume = async (at: number) => {
        clock.set(at);
        return limiter.consume({ key: k, limit: 3, windowMs: hour, now: at });
      };
      const decisions = [await consume(t0), await consume(t0 + 10), await consume(t0 + 20)];
      assert.deepEqual(
        decisions.map((d) => d.allowed && d.remaining),
        [2, 1, 0],
      );
      const refused = await consume(t0 + 30);
      assert.equal(refused.allowed, false);
      assert.equal(refused.allowed === false && refused.retryAfterMs, hour - 30);
    },
  },
  {
    name: 'is a sliding window: a call frees its unit exactly windowMs later, not at a boundary',
    async run(limiter, clock, key) {
      const k = key('sliding');
      const consume = async (at: number) => {
        clock.set(at);
        return (await limiter.consume({ key: k, limit: 2, windowMs: hour, now: at })).allowed;
      };
      assert.equal(await consume(t0), true);
      assert.equal(await consume(t0 + hour - 1), true);
      // A fixed hourly window would reset here and let two more through: four calls in two milliseconds.
      assert.equal(await consume(t0 + hour - 1), false);
      assert.equal(await consume(t0 + hour), true);
      assert.equal(await consume(t0 + hour), false);
      assert.equal(await consume(t0 + 2 * hour - 2), false);
      assert.equal(await consume(t0 + 2 * hour - 1), true);
    },
  },
  {
    name: 'refused calls do not count',
    async run(limiter, clock, key) {
      const k = key('refused');
      const consume = async (at: number) => {
        clock.set(at);
        return (await limiter.consume({ key: k, limit: 1, windowMs: 1_000, now: at })).allowed;
      };
      assert.equal(await consume(t0), true);
      for (let i = 1; i < 10; i++) assert.equal(await consume(t0 + i * 10), false);
      assert.equal(await consume(t0 + 1_000), true);
    },
  },
  {
    name: 'refuses a nonsensical limit with a ConfigurationError instead of admitting',
    async run(limiter, clock, key) {
      const k = key('nonsense');
      for (const [limit, windowMs] of [
        [Number.NaN, hour],
        [-1, hour],
        [1.5, hour],
        [1, 0],
        [1, Number.POSITIVE_INFINITY],
      ] as const)
        await assert.rejects(limiter.consume({ key: k, limit, windowMs, now: clock.now() }), (error) =>
          ConfigurationError.isInstance(error),
        );
      assert.equal(
        (await limiter.consume({ key: k, limit: 1, windowMs: hour, now: clock.now() })).allowed,
        true,
      );
    },
  },
  {
    name: 'keeps keys apart',
    async run(limiter, clock, key) {
      const consume = (k: string) => limiter.consume({ key: k, limit: 1, windowMs: hour, now: clock.now() });
      assert.equal((await consume(key('a'))).allowed, true);
      assert.equal((await consume(key('a'))).allowed, false);
      assert.equal((await consume(key('b'))).allowed, true);
    },
  },
];

/**
 * Registers the suite with a test runner.
 *
 * @example
 * import { describe, it } from 'vitest';
 * import { describeRateLimiterConformance } from 'flowstack/test';
 * describeRateLimiterConformance('redis limiter', (clock) => createRedisRateLimiter({ clock }), { describe, it });
 */
export function describeRateLimiterConformance(
  name: string,
  createLimiter: (clock: ConformanceClock) => RateLimiter | Promise<RateLimiter>,
  runner: {
    describe(name: string, body: () => void): unknown;
    it(name: string, body: () => Promise<void>): unknown;
  },
): void {
  runner.describe(name, () => {
    for (const testCase of rateLimiterConformanceCases) {
      runner.it(testCase.name, async () => {
        const clock = createConformanceClock(t0);
        const limiter = await createLimiter(clock);
        const prefix = `conformance:${Date.now().toString(36)}:${Math.random().toString(36).slice(2)}`;
        try {
          await testCase.run(limiter, clock, (suffix) => `${prefix}:${suffix}`);
        } finally {
          await limiter.close();
        }
      });
    }
  });
}

function createConformanceClock(start: number): ConformanceClock {
  let now = start;
  return {
    now: () => now,
    set: (at) => {
      now = at;
    },
    sleep: () => Promise.resolve(),
  };
}
