import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors/index.js';
import { defaultBounds } from '../spec/index.js';
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
    // Declared once: the skill loop's defaults are the rows of the one table, not a copy of them.
    expect(defaultSkillLoopLimits).toBe(defaultBounds.skillLoop);
    expect(Object.keys(defaultBounds.limits)).not.toContain('maxSkillIterations');
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

  it('applies a column of a layer over that layer’s bound for both columns, and a later layer over both', () => {
    const layers = {
      agent: { maxIterations: 8, complex: { maxIterations: 30 } },
      thread: { simple: { maxIterations: 3 } },
    };
    expect(resolveSkillLoopLimits({ complexity: 'simple', ...layers }).maxIterations).toBe(3);
    expect(resolveSkillLoopLimits({ complexity: 'complex', ...layers }).maxIterations).toBe(30);
    expect(
      resolveSkillLoopLimits({ complexity: 'complex', ...layers, call: { maxIterations: 2 } }).maxIterations,
    ).toBe(2);
  });

  it('refuses overrides that cannot take effect, listing every one, instead of ignoring them', () => {
    let error: unknown;
    try {
      resolveSkillLoopLimits({
        agent: { complex: { maxTurn: 3 } as never },
        call: { maxTurns: -1, maxIterations: Number.NaN, maxBacktracks: '7' as unknown as number },
      });
    } catch (caught) {
      error = caught;
    }
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).problems).toEqual([
      'agent.complex.maxTurn is not a bound of the skill loop',
      'call.maxTurns must be a whole number ≥ 1 (got -1)',
      'call.maxIterations must be a whole number ≥ 1 (got NaN)',
      'call.maxBacktracks must be a whole number ≥ 0 (got "7")',
    ]);
  });
});
