/**
 * Re-routing a failed item (failure policy `re-route`, seed 001 "re-route through contemplate"): the
 * model proposes one replacement step — another flow, or a generic step with other tools — or says the
 * item should be skipped (phase `reroute`). An answer that does not parse means skip.
 */
import { z } from 'zod';
import type { PlanState, StepOutputEntry } from '../spec/index.js';
import { callStructured } from './internal/call-structured.js';
import { modelCallOptions, type PlanModelContext } from './plan-model-context.js';
import { describePlan, describePlanCatalog, itemShape, type PlanCatalogView } from './plan-prompts.js';
import { type TodoItemDraft, todoItemDraftSchema } from './todo-item-draft.js';

export type Replacement =
  | { decision: 'replace'; item: TodoItemDraft; reason?: string }
  | { decision: 'skip'; reason?: string };

const replacementSchema: z.ZodType<Replacement> = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('replace'), item: todoItemDraftSchema, reason: z.string().optional() }),
  z.object({ decision: z.literal('skip'), reason: z.string().optional() }),
]);

export interface ProposeReplacementOptions extends PlanModelContext {
  plan: PlanState;
  failed: StepOutputEntry;
  catalogView: PlanCatalogView;
}

export async function proposeReplacement(
  options: ProposeReplacementOptions,
): Promise<{ replacement: Replacement; problem?: string }> {
  const system = [
    options.persona,
    `Step ${options.failed.itemId} of the plan failed:\n${options.failed.output}`,
    'Propose one replacement step that reaches the same result another way (another flow, or other tools), or skip it.',
    describePlan(options.plan),
    describePlanCatalog(options.catalogView),
    `Answer with JSON only: {"decision": "replace", "item": ${itemShape}} or {"decision": "skip", "reason": "..."}.`,
  ].join('\n\n');
  const answer = await callStructured({
    ...modelCallOptions(options),
    system,
    context: options.conversation,
    phase: 'reroute',
    name: 'reroute',
    schema: replacementSchema,
  });
  return answer.ok
    ? { replacement: answer.value }
    : { replacement: { decision: 'skip' }, problem: answer.problem };
}
