/**
 * Records a step in the transcript (the assistant's message and the results in call order, natively or
 * as text as the calls came), then reflects: a suspension, a stop, an accepted finish, an escalation or a
 * graceful failure ends the run; a backtrack cleans the context for the next step.
 */
import type { SkillOutcome, ToolCallResult } from '../spec/index.js';
import { backtrackPhase } from './backtrack-phase.js';
import type { ModelResponse } from './call-model.js';
import { gracefulFailure } from './describe-progress.js';
import type { SkillRun } from './internal/skill-run.js';
import type { Step } from './read-step-calls.js';
import { reflectPhase } from './reflect-phase.js';
import { assistantMessage, textToolResultsMessage, toolMessage } from './skill-messages.js';
import { stoppedOutcome } from './stopped-outcome.js';
import type { ValidateResult } from './validate-phase.js';

/** A validated step to record. */
export interface RecordStepInput {
  run: SkillRun;
  response: ModelResponse;
  step: Step;
  validated: ValidateResult;
  /** The step's results in call order. */
  ordered: ToolCallResult[];
  /** The outcome `finish_skill` settled on, when it was accepted. */
  accepted: SkillOutcome | undefined;
}

/** Records the step in the transcript (results in call order), then reflects; an outcome ends the run. */
export function recordStep(input: RecordStepInput): SkillOutcome | undefined {
  const { run, response, step, validated, ordered, accepted } = input;
  const suspended = validated.results.find((r) => r.status === 'suspended');
  if (step.viaText) {
    run.messages.push(assistantMessage({ text: response.text, toolCalls: [] }));
    run.messages.push(textToolResultsMessage(ordered));
  } else {
    run.messages.push(assistantMessage(response));
    run.messages.push(toolMessage(ordered));
  }
  if (suspended && suspended.status === 'suspended') {
    reflectPhase(run, validated);
    return {
      outcome: 'suspended',
      kind: 'tool',
      callId: suspended.callId,
      toolName: suspended.toolName,
      reason: suspended.reason,
    };
  }
  if (validated.stopped) {
    reflectPhase(run, validated);
    return stoppedOutcome(run, validated.stopped);
  }
  if (accepted) return accepted;
  const decision = reflectPhase(run, validated);
  if (decision.decision === 'escalate')
    return {
      outcome: 'suspended',
      kind: 'escalate',
      callId: decision.callId ?? '',
      toolName: decision.toolName ?? '',
      reason: decision.reason,
    };
  if (decision.decision === 'fail-gracefully') {
    const error = validated.results.find((r) => r.status === 'error');
    return gracefulFailure({
      state: run.state,
      category: error?.status === 'error' ? error.error.category : 'server_error',
      headline: `The skill cannot finish: ${decision.reason}.`,
    });
  }
  if (decision.decision === 'backtrack') backtrackPhase(run, { decision, results: validated.results });
  return undefined;
}
