/**
 * The outcome a run ends with when the terminator stops it: a suspension when a person decides what
 * happens next (a user stop, a long task asking to go on), otherwise a graceful failure that says
 * what was done and what was not. A bound that was hit is named with the option that raises it
 * (`execution.<bound>`, the skill loop's bounds in `bounds-spec.ts`), so that a task too big for the
 * defaults says what to change.
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
        reason: `This task has taken ${state.turns} model calls so far. Should I go on? (I ask every ${limits.confirmEveryTurns} model calls; \`execution.confirmEveryTurns\` changes that, 0 never asks.)`,
        turns: state.turns,
      };
    case 'wall-time':
      return gracefulFailure({
        state,
        category: 'time_limit',
        headline: `The skill ran out of time (${formatMs(limits.maxWallMs)}).`,
        hint: raiseHint('maxWallMs', limits),
      });
    case 'idle':
      return gracefulFailure({
        state,
        category: 'time_limit',
        headline: `The skill stopped: nothing happened for ${formatMs(limits.maxIdleMs)}.`,
        hint: raiseHint('maxIdleMs', limits),
      });
    case 'breaker-open':
      return gracefulFailure({
        state,
        category: 'circuit_open',
        headline: `The skill gave up after ${state.breaker.backtracks} backtracks.`,
        hint: raiseHint('maxBacktracks', limits),
      });
    case 'consecutive-failures':
      return gracefulFailure({
        state,
        category: 'circuit_open',
        headline: `The skill gave up after ${state.consecutiveFailedSteps} steps in a row in which every tool call failed.`,
        hint: raiseHint('maxConsecutiveFailures', limits),
      });
    case 'max-turns':
      return gracefulFailure({
        state,
        category: 'loop_limit',
        headline: `The skill did not finish within ${limits.maxTurns} model calls in total.`,
        hint: raiseHint('maxTurns', limits),
      });
    case 'max-iterations':
      return gracefulFailure({
        state,
        category: 'loop_limit',
        headline: `The skill did not finish within ${limits.maxIterations} model calls.`,
        hint: raiseHint('maxIterations', limits),
      });
  }
}

/** The bounds a run can hit, each raised by the `execution` option of the same name. */
type RaisableBound =
  | 'maxWallMs'
  | 'maxIdleMs'
  | 'maxBacktracks'
  | 'maxConsecutiveFailures'
  | 'maxTurns'
  | 'maxIterations';

/** Names the option that raises the bound, and its value now. */
export function raiseHint(bound: RaisableBound, limits: SkillLoopLimits): string {
  const now = bound.endsWith('Ms') ? formatMs(limits[bound]) : String(limits[bound]);
  return `To allow more, raise \`execution.${bound}\` (now ${now}).`;
}

function formatMs(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}
