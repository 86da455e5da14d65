/**
 * Whether the skill may end with the outcome the model offered (a `finish_skill` call or a plain
 * answer). A success is held back while a required tool has not been called successfully (seed 002
 * TAEF, up to `enforcementRetries` prompts, then taken with the validation marked failed), and, for
 * flows with a reflection pass, until one evaluation against the success criteria (at most one
 * revision). Failure and uncertain outcomes are taken as they are: the model says it cannot finish.
 */
import type { SkillOutcome } from '../spec/index.js';
import { checkRequiredTools, enforcementPrompt } from './enforce-required-tools.js';
import { emit, type SkillRun } from './internal/skill-run.js';
import { evaluateCandidate, revisionPrompt } from './reflection-pass.js';
import type { LoopMessageKind } from './skill-messages.js';

export type FinishDecision =
  | { accept: true; outcome: SkillOutcome }
  | { accept: false; kind: Extract<LoopMessageKind, 'enforcement' | 'revision'>; feedback: string };

export async function finishPhase(run: SkillRun, candidate: SkillOutcome): Promise<FinishDecision> {
  if (candidate.outcome !== 'success') return { accept: true, outcome: candidate };
  const verdict = checkRequiredTools({ required: run.requiredTools, succeeded: run.state.succeededTools });
  if (!verdict.passed) {
    const retry = run.state.enforcementRetries + 1;
    if (retry <= run.limits.enforcementRetries) {
      run.state.enforcementRetries = retry;
      emit(run, { type: 'enforcement', missing: verdict.missing, retry, passed: false });
      return { accept: false, kind: 'enforcement', feedback: enforcementPrompt(verdict.missing) };
    }
    emit(run, { type: 'enforcement', missing: verdict.missing, retry: retry - 1, passed: false });
  }
  if (run.successCriteria !== undefined && run.state.reflectionPass === 'pending') {
    const evaluation = await evaluateCandidate(run, candidate.data);
    if (evaluation.verdict === 'revise') {
      run.state.reflectionPass = 'revising';
      return { accept: false, kind: 'revision', feedback: revisionPrompt(evaluation.issues) };
    }
  }
  run.state.reflectionPass = 'done';
  return { accept: true, outcome: candidate };
}
