import { describe, expect, it } from 'vitest';
import type { ToolError } from '../spec/index.js';
import { type ClassifyToolErrorInput, classifyToolError, worstDecision } from './classify-tool-error.js';

const base = (
  error: Partial<ToolError>,
  more: Partial<ClassifyToolErrorInput> = {},
): ClassifyToolErrorInput => ({
  toolName: 'get_rate',
  error: { category: 'server_error', message: 'boom', retryable: true, ...error },
  offered: true,
  failureStreak: 1,
  repeatedCall: false,
  alternatives: 1,
  ...more,
});

describe('classifyToolError', () => {
  it('continues on a first transient error (rate limit, timeout, retryable server error)', () => {
    for (const category of ['rate_limit', 'timeout', 'server_error'] as const)
      expect(classifyToolError(base({ category, retryable: true })).decision).toBe('continue');
  });

  it('backtracks when a transient error keeps coming back', () => {
    const d = classifyToolError(base({ category: 'timeout' }, { failureStreak: 2 }));
    expect(d.decision).toBe('backtrack');
    expect(d.reason).toContain('kept failing');
  });

  it('continues on a first validation error (the model can fix its arguments) and backtracks on the second', () => {
    expect(classifyToolError(base({ category: 'validation_error', retryable: false })).decision).toBe(
      'continue',
    );
    expect(
      classifyToolError(base({ category: 'validation_error', retryable: false }, { failureStreak: 2 }))
        .decision,
    ).toBe('backtrack');
  });

  it('backtracks at once on a systematic (non-retryable) failure while another tool is left', () => {
    expect(classifyToolError(base({ retryable: false })).decision).toBe('backtrack');
  });

  it('fails gracefully on a systematic failure when no other tool can be tried', () => {
    const d = classifyToolError(base({ retryable: false }, { alternatives: 0 }));
    expect(d.decision).toBe('fail-gracefully');
    expect(d.reason).toContain('no other tool');
  });

  it('escalates a refused permission and an effect of unknown outcome to a person', () => {
    expect(classifyToolError(base({ category: 'auth_error', retryable: false })).decision).toBe('escalate');
    const unknown = base({
      message: 'outcome_unknown: this call started before an interruption',
      retryable: false,
    });
    expect(classifyToolError(unknown).decision).toBe('escalate');
  });

  it('continues when the model named a tool it was not offered, and backtracks on a detected loop', () => {
    expect(classifyToolError(base({ category: 'not_found' }, { offered: false })).decision).toBe('continue');
    const loop = classifyToolError(
      base({ category: 'validation_error' }, { repeatedCall: true, alternatives: 0 }),
    );
    expect(loop.decision).toBe('backtrack');
    expect(loop.reason).toContain('loop');
  });

  it('backtracks at once when the thing asked for is not there (not_found from an offered tool)', () => {
    expect(classifyToolError(base({ category: 'not_found', retryable: false })).decision).toBe('backtrack');
  });

  it('takes the worst decision of a step, the first on a tie, and continue when nothing failed', () => {
    const c = { decision: 'continue' as const, reason: 'a' };
    const b1 = { decision: 'backtrack' as const, reason: 'b1' };
    const b2 = { decision: 'backtrack' as const, reason: 'b2' };
    const e = { decision: 'escalate' as const, reason: 'e' };
    expect(worstDecision([c, b1, b2])).toBe(b1);
    expect(worstDecision([b1, e, c])).toBe(e);
    expect(worstDecision([]).decision).toBe('continue');
  });
});
