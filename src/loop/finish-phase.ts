/**
 * Whether the skill may end with the outcome the model offered (a `finish_skill` call or a plain
 * answer). A success is held back while a required tool has not been called successfully (seed 002
 * TAEF, up to `enforcementRetries` prompts, then taken with the validation marked failed), and, for
 * flows with a reflection pass, until one evaluation against the success criteria (at most one
 * revision). Failure and uncertain outcomes are taken as they are: the model says it cannot finish.
 */
import type { SkillOutcome, ToolCallRequest, ToolCallResult } from '../spec/index.js';
import { checkRequiredTools, enforcementPrompt } from './enforce-required-tools.js';
import { finishSkillToolName, parseFinishSkill } from './finish-skill-tool.js';
import { emit, type SkillRun } from './internal/skill-run.js';
import { evaluateCandidate, revisionPrompt } from './reflection-pass.js';
import type { LoopMessageKind } from './skill-messages.js';
import type { ValidateResult } from './validate-phase.js';

export type FinishDecision =
  | { accept: true; outcome: SkillOutcome }
  | { accept: false; kind: Extract<LoopMessageKind, 'enforcement' | 'revision'>; feedback: string };

/** Takes the offered outcome, or says what the model must do first (enforcement, revision). */
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

/**
 * Answers the step's `finish_skill` calls: the first one is read (and taken if `finishPhase` accepts
 * it), any other is ignored. A finish is refused while a sibling call waits or was cut off, when its
 * arguments are invalid, and — for a success — when a sibling call of the same step failed.
 */
export async function settleFinishCalls(
  run: SkillRun,
  finishes: readonly ToolCallRequest[],
  validated: ValidateResult,
): Promise<{ results: ToolCallResult[]; accepted?: SkillOutcome }> {
  const results: ToolCallResult[] = [];
  let accepted: SkillOutcome | undefined;
  const waiting = validated.stopped !== undefined || validated.results.some((r) => r.status === 'suspended');
  const failedSibling = validated.results.find((r) => r.status === 'error');
  for (const [index, finish] of finishes.entries()) {
    let refusal: string | undefined;
    if (index > 0) refusal = `Only one ${finishSkillToolName} call per step is read; this one was ignored.`;
    else if (waiting) refusal = 'Not accepted: another call of this step has not finished yet.';
    else {
      const parsed = parseFinishSkill(finish.input);
      if (!parsed.ok) refusal = parsed.problem;
      else if (parsed.outcome.outcome === 'success' && failedSibling)
        refusal = `Not accepted: ${failedSibling.toolName} failed in this same step. Read its result, then finish again.`;
      else {
        const decision = await finishPhase(run, parsed.outcome);
        if (decision.accept) accepted = decision.outcome;
        else refusal = decision.feedback;
      }
    }
    results.push(finishResult(finish, refusal));
  }
  return accepted ? { results, accepted } : { results };
}

function finishResult(call: ToolCallRequest, refusal: string | undefined): ToolCallResult {
  return refusal === undefined
    ? {
        status: 'success',
        callId: call.callId,
        toolName: finishSkillToolName,
        output: 'ok',
        contextText: 'ok',
      }
    : {
        status: 'error',
        callId: call.callId,
        toolName: finishSkillToolName,
        error: { category: 'validation_error', message: refusal, retryable: true },
        contextText: refusal,
      };
}
