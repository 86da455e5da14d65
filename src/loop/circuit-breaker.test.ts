import { describe, expect, it } from 'vitest';
import { createCircuitBreakerState, updateCircuitBreaker } from './circuit-breaker.js';
import { defaultSkillLoopLimits } from './skill-loop-limits.js';

const limits = defaultSkillLoopLimits.simple;
const fail = (toolName: string) => ({ toolName, ok: false });
const ok = (toolName: string) => ({ toolName, ok: true });

describe('circuit breaker', () => {
  it('level 1: three tool errors in a row force one reflection, which resets the count', () => {
    let state = createCircuitBreakerState();
    let r = updateCircuitBreaker(state, { type: 'tool-results', results: [fail('a'), fail('b')] }, limits);
    expect(r.state.reflectionDue).toBe(false);
    r = updateCircuitBreaker(r.state, { type: 'tool-results', results: [fail('a')] }, limits);
    expect(r.state.reflectionDue).toBe(true);
    expect(r.effects).toContainEqual({ type: 'force-reflection', consecutiveErrors: 3 });
    state = updateCircuitBreaker(r.state, { type: 'reflection-done' }, limits).state;
    expect(state).toMatchObject({ reflectionDue: false, consecutiveErrors: 0 });
  });

  it('level 1: a success in between resets the run of errors', () => {
    let r = updateCircuitBreaker(
      createCircuitBreakerState(),
      { type: 'tool-results', results: [fail('a'), fail('a'), ok('b')] },
      limits,
    );
    r = updateCircuitBreaker(r.state, { type: 'tool-results', results: [fail('a'), fail('c')] }, limits);
    expect(r.state.consecutiveErrors).toBe(2);
    expect(r.state.reflectionDue).toBe(false);
  });

  it('level 2: the fifth backtrack opens the breaker, once', () => {
    let state = createCircuitBreakerState();
    const effects = [];
    for (let i = 0; i < 6; i++) {
      const r = updateCircuitBreaker(state, { type: 'backtrack' }, limits);
      state = r.state;
      effects.push(...r.effects);
      expect(state.open).toBe(i >= 4);
    }
    expect(effects).toEqual([{ type: 'open', backtracks: 5 }]);
  });

  it('withdraws a tool after three failures of its own in a row; its success resets the streak', () => {
    let r = updateCircuitBreaker(
      createCircuitBreakerState(),
      { type: 'tool-results', results: [fail('a'), fail('a'), ok('a'), fail('a'), fail('b'), fail('a')] },
      limits,
    );
    expect(r.state.withdrawn).toEqual([]);
    r = updateCircuitBreaker(r.state, { type: 'tool-results', results: [fail('a')] }, limits);
    expect(r.state.withdrawn).toEqual(['a']);
    expect(r.effects).toContainEqual({ type: 'withdraw-tool', toolName: 'a', failures: 3 });
  });

  it('never mutates the state it is given', () => {
    const state = createCircuitBreakerState();
    const frozen = JSON.stringify(state);
    updateCircuitBreaker(state, { type: 'tool-results', results: [fail('a'), fail('a'), fail('a')] }, limits);
    updateCircuitBreaker(state, { type: 'backtrack' }, limits);
    expect(JSON.stringify(state)).toBe(frozen);
  });

  it('a threshold of 0 turns a level off', () => {
    const off = { ...limits, errorsBeforeReflection: 0, maxBacktracks: 0, toolFailuresBeforeWithdrawal: 0 };
    let state = createCircuitBreakerState();
    for (let i = 0; i < 10; i++) {
      state = updateCircuitBreaker(state, { type: 'tool-results', results: [fail('a')] }, off).state;
      state = updateCircuitBreaker(state, { type: 'backtrack' }, off).state;
    }
    expect(state).toMatchObject({ reflectionDue: false, open: false, withdrawn: [] });
  });
});
