import { describe, expect, it } from 'vitest';
import { backoffDelayMs, jitterDelayMs } from './backoff-delay.js';

describe('backoffDelayMs (exponential, capped, equal jitter)', () => {
  it('is the plain exponential wait when the random source draws 0', () => {
    const waits = [1, 2, 3, 4, 5, 6].map((attempt) =>
      backoffDelayMs({ attempt, baseMs: 1_000, maxMs: 10_000, random: () => 0 }),
    );
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  });

  it('takes off ⌊capped / 2 × random⌋', () => {
    expect(backoffDelayMs({ attempt: 2, baseMs: 1_000, maxMs: 10_000, random: () => 0.5 })).toBe(1_500);
    expect(backoffDelayMs({ attempt: 3, baseMs: 1_000, maxMs: 10_000, random: () => 0.1 })).toBe(3_800);
    expect(backoffDelayMs({ attempt: 9, baseMs: 1_000, maxMs: 10_000, random: () => 0.999 })).toBe(5_005);
  });

  it('keeps a source that strays outside [0, 1) within (wait / 2, wait]', () => {
    expect(jitterDelayMs(1_000, () => 7)).toBe(500);
    expect(jitterDelayMs(1_000, () => -3)).toBe(1_000);
    expect(jitterDelayMs(1_000, () => Number.NaN)).toBe(1_000);
  });

  it('spreads waits of the same attempt with the real random source, within the bounds', () => {
    const waits = Array.from({ length: 50 }, () =>
      backoffDelayMs({ attempt: 4, baseMs: 1_000, maxMs: 30_000 }),
    );
    expect(new Set(waits).size).toBeGreaterThan(10);
    expect(Math.min(...waits)).toBeGreaterThan(4_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(8_000);
  });
});
