/**
 * The skill loop's last step: the result of the run from its one outcome, with the control state closed
 * and, for a success, the verdict on the tools the run was required to call.
 */
import type { SkillOutcome } from '../spec/index.js';
import { checkRequiredTools } from './enforce-required-tools.js';
import type { SkillRun } from './internal/skill-run.js';
import type { SkillLoopResult } from './skill-loop-result.js';
import { closeSkillLoopState } from './skill-loop-state.js';

/** The run's result for its outcome. */
export function finishSkillRun(run: SkillRun, outcome: SkillOutcome): SkillLoopResult {
  const result: SkillLoopResult = {
    outcome,
    messages: run.messages,
    events: run.events,
    iterations: run.state.iterations,
    inputTokens: run.state.inputTokens,
    outputTokens: run.state.outputTokens,
    state: closeSkillLoopState(run.state, run.clock.now()),
  };
  if (outcome.outcome === 'success' && run.requiredTools.length > 0) {
    const verdict = checkRequiredTools({ required: run.requiredTools, succeeded: run.state.succeededTools });
    result.validation = { requiredTools: [...run.requiredTools], ...verdict };
  }
  return result;
}
