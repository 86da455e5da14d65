/**
 * The replanning check after an item (phase `replan`, seed 001): a lightweight prompted decision over
 * the finished item's output and the remaining plan — not a re-invocation of the Plan policy. An answer
 * that does not parse means `continue`.
 */
import type { PlanState, StepOutputEntry } from '../spec/index.js';
import { callStructured } from './internal/call-structured.js';
import { modelCallOptions, type PlanModelContext } from './plan-model-context.js';
import { describePlan, itemShape } from './plan-prompts.js';
import { type ReplanDecision, replanDecisionSchema } from './replan-decision.js';

export interface CheckReplanOptions extends PlanModelContext {
  plan: PlanState;
  /** The item that just finished and its output. */
  finished: StepOutputEntry;
  scratchpad: readonly string[];
}

export async function checkReplan(
  options: CheckReplanOptions,
): Promise<{ decision: ReplanDecision; problem?: string }> {
  const system = [
    options.persona,
    'You are checking a running plan after one of its steps finished. Decide one of:',
    '- continue: the remaining steps still fit;',
    '- reorder: the results suggest another order of the pending steps (give all pending ids in the new order);',
    `- expand: the results revealed new work (give the new steps as ${itemShape});`,
    '- prune: the results make pending steps unnecessary (give their ids).',
    describePlan(options.plan),
    `Step ${options.finished.itemId} just finished (${options.finished.status}). Its output:\n${options.finished.output}`,
    options.scratchpad.length > 0
      ? `Findings so far:\n${options.scratchpad.map((s) => `- ${s}`).join('\n')}`
      : '',
    'Answer with JSON only: {"decision": "continue"} or {"decision": "reorder", "order": [...]} or ' +
      '{"decision": "expand", "items": [...]} or {"decision": "prune", "itemIds": [...]}, each with an optional "reason".',
  ]
    .filter((part) => part !== '')
    .join('\n\n');
  const answer = await callStructured({
    ...modelCallOptions(options),
    system,
    context: options.conversation,
    phase: 'replan',
    name: 'replan',
    schema: replanDecisionSchema,
  });
  return answer.ok
    ? { decision: answer.value }
    : { decision: { decision: 'continue' }, problem: answer.problem };
}
