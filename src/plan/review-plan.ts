/**
 * The Plan policy's final assessment (phase `plan-review`, seed 001 plan completion): when every item is
 * settled the policy runs once more and decides whether the objective is met or more work is needed.
 * Plan completion is never automatic; an answer that does not parse counts as `finish`.
 */
import { z } from 'zod';
import type { PlanState } from '../spec/index.js';
import { callStructured } from './internal/call-structured.js';
import { modelCallOptions, type PlanModelContext } from './plan-model-context.js';
import { describePlan, itemShape } from './plan-prompts.js';
import { type TodoItemDraft, todoItemDraftSchema } from './todo-item-draft.js';

export type PlanReview =
  | { decision: 'finish'; reason?: string }
  | { decision: 'continue'; items: TodoItemDraft[]; reason?: string };

const reviewSchema: z.ZodType<PlanReview> = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('finish'), reason: z.string().optional() }),
  z.object({
    decision: z.literal('continue'),
    items: z.array(todoItemDraftSchema).min(1).max(8),
    reason: z.string().optional(),
  }),
]);

export interface ReviewPlanOptions extends PlanModelContext {
  plan: PlanState;
  /** The step outputs as a prompt section. */
  outputs: string;
}

export async function reviewPlan(
  options: ReviewPlanOptions,
): Promise<{ review: PlanReview; problem?: string }> {
  const system = [
    options.persona,
    'Every step of the plan has finished. Decide whether the objective is fully met ("finish") or more steps are needed ("continue", with the new steps).',
    describePlan(options.plan),
    `Step outputs:\n${options.outputs}`,
    `Answer with JSON only: {"decision": "finish", "reason": "..."} or {"decision": "continue", "items": [${itemShape}], "reason": "..."}.`,
  ].join('\n\n');
  const answer = await callStructured({
    ...modelCallOptions(options),
    system,
    context: options.conversation,
    phase: 'plan-review',
    name: 'plan_review',
    schema: reviewSchema,
  });
  return answer.ok ? { review: answer.value } : { review: { decision: 'finish' }, problem: answer.problem };
}
