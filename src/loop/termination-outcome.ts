/**
 * The outcome a run ends with when the terminator stops it: a suspension when a person decides what
 * happens next (a user stop, a long task asking to go on), otherwise a graceful failure that says
 * what was done and what was not.
 */
import type { SkillOutcome } from '../spec/index.js';
import { gracefulFailure } from './describe-progress.js';
import type { TerminationReason } from './should-terminate.js';
import type { SkillLoopLimits } from './skill-loop-limits.js';
import type { SkillLoopState } from './skill-loop-state.js';

/** The outcome for a termination reason. */
export function terminationOutcome(
  reason: TerminationReason,
  state: SkillLoopState,
  limits: SkillLoopLimits,
): SkillOutcome {
  switch (reason) {
    case 'user-stop':
      return {
        outcome: 'suspended',
        kind: 'user-stop',
        reason: `Stopped by the user after ${state.turns} model calls.`,
        turns: state.turns,
      };
    case 'confirm-continue':
      return {
        outcome: 'suspended',
        kind: 'confirm-continue',
        reason: `This task has taken ${state.turns} model calls so far. Should I go on?`,
        turns: state.turns,
      };
    case 'wall-time':
      return gracefulFailure({
        state,
        category: 'time_limit',
        headline: `The skill ran out of time (${formatMs(limits.maxWallMs)}).`,
      });
    case 'idle':
      return gracefulFailure({
        state,
        category: 'time_limit',
        headline: `The skill stopped: nothing happened for ${formatMs(limits.maxIdleMs)}.`,
      });
    case 'breaker-open':
      return gracefulFailure({
        state,
        category: 'circuit_open',
        headline: `The skill gave up after ${state.breaker.backtracks} backtracks.`,
      });
    case 'consecutive-failures':
      return gracefulFailure({
        state,
        category: 'circuit_open',
        headline: `The skill gave up after ${state.consecutiveFailedSteps} steps in a row in which every tool call failed.`,
      });
    case 'max-turns':
      return gracefulFailure({
        state,
        category: 'loop_limit',
        headline: `The skill did not finish within ${limits.maxTurns} model calls in total.`,
      });
    case 'max-iterations':
      return gracefulFailure({
        state,
        category: 'loop_limit',
        headline: `The skill did not finish within ${limits.maxIterations} model calls.`,
      });
  }
}

function formatMs(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}
