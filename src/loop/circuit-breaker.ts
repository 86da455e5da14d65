/**
 * The two-level circuit breaker of seed 004, as a pure transition `(state, event) → state + effects`.
 * Level 1: tool errors in a row force a reflection turn (tools withheld; the model must explain before
 * it continues). Level 2: too many backtracks open the breaker and the run ends with a graceful
 * failure. A tool that fails several times in a row is withdrawn from the offered set.
 */
import type { SkillLoopLimits } from './skill-loop-limits.js';

export interface CircuitBreakerState {
  /** Tool errors in a row, across steps; a success resets it, and so does a forced reflection. */
  consecutiveErrors: number;
  /** Backtracks so far in this run. */
  backtracks: number;
  /** Failures in a row per tool name. */
  toolFailureStreaks: Record<string, number>;
  /** Tools no longer offered to the model. */
  withdrawn: string[];
  /** The next model call is a reflection turn. */
  reflectionDue: boolean;
  /** Level 2 tripped: the run must end. */
  open: boolean;
}

export type CircuitBreakerEvent =
  | { type: 'tool-results'; results: readonly { toolName: string; ok: boolean }[] }
  | { type: 'backtrack' }
  | { type: 'reflection-done' };

export type CircuitBreakerEffect =
  | { type: 'force-reflection'; consecutiveErrors: number }
  | { type: 'withdraw-tool'; toolName: string; failures: number }
  | { type: 'open'; backtracks: number };

/** A closed breaker: no errors, no backtracks, nothing withdrawn. */
export function createCircuitBreakerState(): CircuitBreakerState {
  return {
    consecutiveErrors: 0,
    backtracks: 0,
    toolFailureStreaks: {},
    withdrawn: [],
    reflectionDue: false,
    open: false,
  };
}

type BreakerLimits = Pick<
  SkillLoopLimits,
  'errorsBeforeReflection' | 'maxBacktracks' | 'toolFailuresBeforeWithdrawal'
>;

/** Applies one event; never mutates its input. */
export function updateCircuitBreaker(
  state: CircuitBreakerState,
  event: CircuitBreakerEvent,
  limits: BreakerLimits,
): { state: CircuitBreakerState; effects: CircuitBreakerEffect[] } {
  const effects: CircuitBreakerEffect[] = [];
  if (event.type === 'reflection-done') {
    return { state: { ...state, reflectionDue: false, consecutiveErrors: 0 }, effects };
  }
  if (event.type === 'backtrack') {
    const backtracks = state.backtracks + 1;
    const open = state.open || (limits.maxBacktracks > 0 && backtracks >= limits.maxBacktracks);
    if (open && !state.open) effects.push({ type: 'open', backtracks });
    return { state: { ...state, backtracks, open }, effects };
  }
  // The common step: every call succeeded and nothing was failing. The state stays as it is.
  if (state.consecutiveErrors === 0 && allOkAndSettled(state, event.results)) return { state, effects };
  let consecutiveErrors = state.consecutiveErrors;
  const streaks = { ...state.toolFailureStreaks };
  const withdrawn = [...state.withdrawn];
  for (const result of event.results) {
    if (result.ok) {
      consecutiveErrors = 0;
      streaks[result.toolName] = 0;
      continue;
    }
    consecutiveErrors += 1;
    const streak = (streaks[result.toolName] ?? 0) + 1;
    streaks[result.toolName] = streak;
    const limit = limits.toolFailuresBeforeWithdrawal;
    if (limit > 0 && streak >= limit && !withdrawn.includes(result.toolName)) {
      withdrawn.push(result.toolName);
      effects.push({ type: 'withdraw-tool', toolName: result.toolName, failures: streak });
    }
  }
  let reflectionDue = state.reflectionDue;
  const threshold = limits.errorsBeforeReflection;
  if (threshold > 0 && consecutiveErrors >= threshold && !reflectionDue) {
    reflectionDue = true;
    effects.push({ type: 'force-reflection', consecutiveErrors });
  }
  return {
    state: { ...state, consecutiveErrors, toolFailureStreaks: streaks, withdrawn, reflectionDue },
    effects,
  };
}

/** Whether every result succeeded for a tool whose failure streak is already recorded as zero. */
function allOkAndSettled(
  state: CircuitBreakerState,
  results: readonly { toolName: string; ok: boolean }[],
): boolean {
  for (const result of results) {
    if (!result.ok || state.toolFailureStreaks[result.toolName] !== 0) return false;
  }
  return true;
}
