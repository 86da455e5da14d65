import { describe, expect, it } from 'vitest';
import { shouldTerminate } from './should-terminate.js';
import { defaultSkillLoopLimits, resolveSkillLoopLimits } from './skill-loop-limits.js';
import { createSkillLoopState, resumeSkillLoopState, type SkillLoopState } from './skill-loop-state.js';

const t0 = 1_000;
const fresh = (patch: Partial<SkillLoopState> = {}): SkillLoopState => ({
  ...createSkillLoopState({ now: t0, maxOutputTokens: 4096 }),
  ...patch,
});
const simple = defaultSkillLoopLimits.simple;
const complex = defaultSkillLoopLimits.complex;
const reason = (v: ReturnType<typeof shouldTerminate>) => (v.terminate ? v.reason : undefined);

describe('shouldTerminate', () => {
  it('lets a fresh run go on', () => {
    expect(shouldTerminate({ state: fresh(), limits: simple, now: t0 })).toEqual({ terminate: false });
  });

  it('stops for the user before anything else', () => {
    const state = fresh({ iterations: 99, turns: 99 });
    expect(reason(shouldTerminate({ state, limits: simple, now: t0 + 10 ** 9, stopRequested: true }))).toBe(
      'user-stop',
    );
  });

  it('stops at the wall-clock limit, counting earlier invocations but not time spent suspended', () => {
    expect(reason(shouldTerminate({ state: fresh(), limits: simple, now: t0 + simple.maxWallMs }))).toBe(
      'wall-time',
    );
    const resumed = resumeSkillLoopState(fresh({ priorElapsedMs: simple.maxWallMs - 10 }), {
      now: t0 + 10 ** 7,
    });
    expect(reason(shouldTerminate({ state: resumed, limits: simple, now: t0 + 10 ** 7 + 5 }))).toBe(
      undefined,
    );
    expect(reason(shouldTerminate({ state: resumed, limits: simple, now: t0 + 10 ** 7 + 10 }))).toBe(
      'wall-time',
    );
  });

  it('stops when nothing happened for the idle limit', () => {
    const state = fresh({ lastActivityAt: t0 + 60_000 });
    expect(
      shouldTerminate({ state, limits: simple, now: t0 + 60_000 + simple.maxIdleMs - 1 }).terminate,
    ).toBe(false);
    expect(reason(shouldTerminate({ state, limits: simple, now: t0 + 60_000 + simple.maxIdleMs }))).toBe(
      'idle',
    );
  });

  it('stops when the breaker is open, and after too many failed steps in a row', () => {
    const open = fresh();
    open.breaker = { ...open.breaker, open: true };
    expect(reason(shouldTerminate({ state: open, limits: simple, now: t0 }))).toBe('breaker-open');
    expect(
      reason(shouldTerminate({ state: fresh({ consecutiveFailedSteps: 5 }), limits: simple, now: t0 })),
    ).toBe('consecutive-failures');
  });

  it('tolerates more failures and more steps for complex tasks', () => {
    const state = fresh({ consecutiveFailedSteps: 5, iterations: 5, turns: 5 });
    expect(reason(shouldTerminate({ state, limits: simple, now: t0 }))).toBe('consecutive-failures');
    expect(shouldTerminate({ state, limits: complex, now: t0 })).toEqual({ terminate: false });
    expect(
      reason(shouldTerminate({ state: fresh({ iterations: 5, turns: 5 }), limits: simple, now: t0 })),
    ).toBe('max-iterations');
  });

  it('asks to go on every N turns, once per multiple, before the iteration bound cuts the task off', () => {
    const state = fresh({ iterations: 20, turns: 20 });
    expect(reason(shouldTerminate({ state, limits: complex, now: t0 }))).toBe('confirm-continue');
    const confirmed = resumeSkillLoopState(state, { now: t0, confirmed: true });
    expect(confirmed.iterations).toBe(0);
    expect(shouldTerminate({ state: confirmed, limits: complex, now: t0 })).toEqual({ terminate: false });
    const off = resolveSkillLoopLimits({ complexity: 'complex', call: { confirmEveryTurns: 0 } });
    expect(reason(shouldTerminate({ state, limits: off, now: t0 }))).toBe('max-iterations');
  });

  it('stops at the total turn budget across resumes', () => {
    const state = fresh({ turns: 100, confirmedAtTurn: 100 });
    expect(reason(shouldTerminate({ state, limits: complex, now: t0 }))).toBe('max-turns');
  });
});
