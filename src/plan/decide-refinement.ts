/**
 * User-driven refinement (seed 002 stage 3): a message that arrives while a plan is active refines that
 * plan instead of starting a new one (phase `refine`). The model rewrites the remaining plan, keeps it,
 * abandons it at the user's wish, or says the message is about something else, which is then routed as
 * usual while the plan waits below it. An answer that does not parse keeps the plan.
 */
import { z } from 'zod';
import type { PlanState } from '../spec/index.js';
import { callStructured } from './internal/call-structured.js';
import { modelCallOptions, type PlanModelContext } from './plan-model-context.js';
import { describePlan, itemShape } from './plan-prompts.js';
import { type TodoItemDraft, todoItemDraftSchema } from './todo-item-draft.js';

export type Refinement =
  | { decision: 'continue'; reason?: string }
  | { decision: 'refine'; items: TodoItemDraft[]; reason?: string }
  | { decision: 'abandon'; reason?: string }
  | { decision: 'unrelated'; reason?: string };

const refinementSchema: z.ZodType<Refinement> = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('continue'), reason: z.string().optional() }),
  z.object({
    decision: z.literal('refine'),
    items: z.array(todoItemDraftSchema).min(1).max(32),
    reason: z.string().optional(),
  }),
  z.object({ decision: z.literal('abandon'), reason: z.string().optional() }),
  z.object({ decision: z.literal('unrelated'), reason: z.string().optional() }),
]);

export interface DecideRefinementOptions extends PlanModelContext {
  plan: PlanState;
}

export async function decideRefinement(
  options: DecideRefinementOptions,
): Promise<{ refinement: Refinement; problem?: string }> {
  const system = [
    options.persona,
    'A plan is under way and the user sent a new message. Decide what it means for the plan:',
    '- continue: go on with the plan as it is (e.g. "continue", "go on");',
    `- refine: the user wants the plan changed (e.g. "also check X"): give the whole remaining plan as items ${itemShape}, keeping the ids of existing items; finished items cannot change;`,
    '- abandon: the user wants the plan stopped;',
    '- unrelated: the message asks for something else; the plan will wait.',
    describePlan(options.plan),
    'Answer with JSON only: {"decision": "continue" | "refine" | "abandon" | "unrelated", "items": [...] (refine only), "reason": "..."}.',
  ].join('\n\n');
  const answer = await callStructured({
    ...modelCallOptions(options),
    system,
    context: options.conversation,
    phase: 'refine',
    name: 'refinement',
    schema: refinementSchema,
  });
  return answer.ok
    ? { refinement: answer.value }
    : { refinement: { decision: 'continue' }, problem: answer.problem };
}
