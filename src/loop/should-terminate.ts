/**
 * The adaptive terminator (seed 004): a pure function of the loop state, the limits in force and the
 * injected clock's `now`, evaluated before every model call. The model's own stop (a `finish_skill`
 * call or a plain answer) ends the run where it happens; this decides every other way a run ends.
 */
import type { SkillLoopLimits } from './skill-loop-limits.js';
import type { SkillLoopState } from './skill-loop-state.js';

export type TerminationReason =
  | 'user-stop'
  | 'wall-time'
  | 'idle'
  | 'breaker-open'
  | 'consecutive-failures'
  | 'max-turns'
  | 'confirm-continue'
  | 'max-iterations';

export type TerminationVerdict = { terminate: false } | { terminate: true; reason: TerminationReason };

export interface ShouldTerminateInput {
  state: SkillLoopState;
  limits: SkillLoopLimits;
  now: number;
  /** The user stopped the run (an aborted signal, a stop button) or said they want to stop. */
  stopRequested?: boolean;
}

/**
 * Checks the signals in order of precedence: a user stop first (the user decides), then the time
 * limits, the breaker and failure spiral, the turn budget, the long-task confirmation, and last the
 * per-invocation iteration bound — so a long complex task is asked to go on before it is cut off.
 */
export function shouldTerminate(input: ShouldTerminateInput): TerminationVerdict {
  const { state, limits, now } = input;
  const stop = (reason: TerminationReason): TerminationVerdict => ({ terminate: true, reason });
  if (input.stopRequested) return stop('user-stop');
  if (state.priorElapsedMs + now - state.startedAt >= limits.maxWallMs) return stop('wall-time');
  if (now - state.lastActivityAt >= limits.maxIdleMs) return stop('idle');
  if (state.breaker.open) return stop('breaker-open');
  if (limits.maxConsecutiveFailures > 0 && state.consecutiveFailedSteps >= limits.maxConsecutiveFailures)
    return stop('consecutive-failures');
  if (state.turns >= limits.maxTurns) return stop('max-turns');
  if (isConfirmationDue(state, limits)) return stop('confirm-continue');
  if (state.iterations >= limits.maxIterations) return stop('max-iterations');
  return { terminate: false };
}

/** A confirmation is due every `confirmEveryTurns` turns, once per multiple. */
export function isConfirmationDue(
  state: Pick<SkillLoopState, 'turns' | 'confirmedAtTurn'>,
  limits: Pick<SkillLoopLimits, 'confirmEveryTurns'>,
): boolean {
  const every = limits.confirmEveryTurns;
  return every > 0 && state.turns > 0 && state.turns % every === 0 && state.confirmedAtTurn < state.turns;
}
