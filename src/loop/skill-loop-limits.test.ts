import { describe, expect, it } from 'vitest';
import { defaultAgentLimits } from '../agent/index.js';
import { defaultSkillLoopLimits, resolveSkillLoopLimits } from './skill-loop-limits.js';

describe('skill loop limits', () => {
  it('declares the DESIGN.md §5 bounds once', () => {
    const { simple, complex } = defaultSkillLoopLimits;
    expect([simple.maxIterations, complex.maxIterations]).toEqual([5, 20]);
    expect(complex).toMatchObject({
      maxTurns: 100,
      maxWallMs: 30 * 60_000,
      maxIdleMs: 2 * 60_000,
      confirmEveryTurns: 20,
      errorsBeforeReflection: 3,
      maxBacktracks: 5,
      toolFailuresBeforeWithdrawal: 3,
      enforcementRetries: 2,
    });
    expect(simple.maxTurns).toBeLessThan(complex.maxTurns);
    expect(simple.maxWallMs).toBeLessThan(complex.maxWallMs);
    expect(defaultAgentLimits.maxSkillIterations).toBe(simple.maxIterations);
    expect(defaultAgentLimits.maxSkillIterationsComplex).toBe(complex.maxIterations);
  });

  it('applies overrides call > thread > agent over the column for the complexity', () => {
    const limits = resolveSkillLoopLimits({
      complexity: 'complex',
      agent: { maxTurns: 50, maxBacktracks: 4, maxIdleMs: 1000 },
      thread: { maxTurns: 40, maxBacktracks: 3 },
      call: { maxTurns: 30 },
    });
    expect(limits).toMatchObject({ maxTurns: 30, maxBacktracks: 3, maxIdleMs: 1000, maxIterations: 20 });
  });

  it('ignores overrides that are not non-negative numbers', () => {
    const limits = resolveSkillLoopLimits({
      call: { maxTurns: -1, maxIterations: Number.NaN, maxBacktracks: '7' as unknown as number },
    });
    expect(limits).toMatchObject({ maxTurns: 30, maxIterations: 5, maxBacktracks: 5 });
  });
});
