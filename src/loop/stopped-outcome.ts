/**
 * The outcome of a run that was stopped (by the user, or by a deadline while a call was in flight): the
 * `terminated` event and the termination outcome for the reason.
 */
import type { SkillOutcome } from '../spec/index.js';
import type { StopReason } from './await-within.js';
import { emit, type SkillRun } from './internal/skill-run.js';
import { terminationOutcome } from './termination-outcome.js';

/** Ends the run for a stop that happened during a phase. */
export function stoppedOutcome(run: SkillRun, reason: StopReason): SkillOutcome {
  const termination = reason === 'user-stop' ? 'user-stop' : reason;
  emit(run, { type: 'terminated', reason: termination });
  return terminationOutcome(termination, run.state, run.limits);
}
