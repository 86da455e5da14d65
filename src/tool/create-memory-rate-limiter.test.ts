import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors/index.js';
import { describeRateLimiterConformance } from '../test/rate-limiter-conformance.js';
import { createMemoryRateLimiter } from './create-memory-rate-limiter.js';

describeRateLimiterConformance('memory rate limiter conformance', () => createMemoryRateLimiter(), {
  describe,
  it,
});

describe('createMemoryRateLimiter', () => {
  it('forgets the least recently used key past maxKeys, and stays correct for the keys it keeps', async () => {
    const limiter = createMemoryRateLimiter({ maxKeys: 2 });
    const take = (key: string) => limiter.consume({ key, limit: 1, windowMs: 1_000, now: 0 });
    expect((await take('a')).allowed).toBe(true);
    expect((await take('b')).allowed).toBe(true);
    expect((await take('a')).allowed).toBe(false);
    expect((await take('c')).allowed).toBe(true); // forgets b, the least recently used
    expect((await take('a')).allowed).toBe(false);
  });

  it('rejects a nonsensical limit instead of admitting', async () => {
    const limiter = createMemoryRateLimiter();
    await expect(limiter.consume({ key: 'k', limit: Number.NaN, windowMs: 1_000, now: 0 })).rejects.toThrow(
      ConfigurationError,
    );
    await expect(limiter.consume({ key: 'k', limit: 1, windowMs: 0, now: 0 })).rejects.toThrow(
      ConfigurationError,
    );
  });

  it('stays exact over a long run of takes on one key, while its log is compacted', async () => {
    const limiter = createMemoryRateLimiter();
    let admitted = 0;
    for (let now = 0; now < 100_000; now++)
      if ((await limiter.consume({ key: 'k', limit: 5, windowMs: 10, now })).allowed) admitted++;
    // One unit per millisecond, five per 10 ms window: exactly half are admitted.
    expect(admitted).toBe(50_000);
  });
});
