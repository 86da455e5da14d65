/**
 * The tool half of one RVR-B step: validate (run the tool batch), settle `finish_skill` against the
 * results of the other calls, then record the step and reflect (`recordStep`). An outcome ends the run.
 */
import type { SkillOutcome, ToolCallResult } from '../spec/index.js';
import type { ModelResponse } from './call-model.js';
import { settleFinishCalls } from './finish-phase.js';
import { finishSkillToolName } from './finish-skill-tool.js';
import type { SkillRun } from './internal/skill-run.js';
import type { Step } from './read-step-calls.js';
import { recordStep } from './record-step.js';
import { validatePhase } from './validate-phase.js';

/** Validate, settle `finish_skill`, record the step, then reflect and backtrack; an outcome ends the run. */
export async function runStepCalls(
  run: SkillRun,
  response: ModelResponse,
  step: Step,
): Promise<SkillOutcome | undefined> {
  if (step.calls.some((c) => c.toolName === finishSkillToolName))
    return runFinishingCalls(run, response, step);
  const validated = await validatePhase(run, step.calls);
  return recordStep({ run, response, step, validated, ordered: validated.results, accepted: undefined });
}

/** A step with `finish_skill`: the other calls run first, then the finish is settled against their results. */
async function runFinishingCalls(
  run: SkillRun,
  response: ModelResponse,
  step: Step,
): Promise<SkillOutcome | undefined> {
  const finishes = step.calls.filter((c) => c.toolName === finishSkillToolName);
  const others = step.calls.filter((c) => c.toolName !== finishSkillToolName);
  const validated = await validatePhase(run, others);
  const settled = await settleFinishCalls(run, finishes, validated);
  const results = new Map<string, ToolCallResult>(validated.results.map((r) => [r.callId, r]));
  for (const r of settled.results) results.set(r.callId, r);
  const ordered = step.calls.map((c) => results.get(c.callId) as ToolCallResult);
  return recordStep({ run, response, step, validated, ordered, accepted: settled.accepted });
}
