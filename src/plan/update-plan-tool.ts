/**
 * `update_plan`: how a step changes the rest of its plan from inside (seed 002 `updatedPlan`). The tool
 * only checks and acknowledges the proposal; the plan loop reads it from the step's tool calls after the
 * step ends and applies it through `sanitizeUpdatedPlan`, so a proposal is never lost to a journal replay
 * and never changes what already ran.
 */
import { z } from 'zod';
import type { SkillLoopEvent } from '../loop/index.js';
import { defineTool, type ToolDefinition } from '../tool/index.js';
import { type TodoItemDraft, todoItemDraftSchema } from './todo-item-draft.js';

export const updatePlanToolName = 'update_plan';

const updatePlanInput = z.object({
  items: z.array(todoItemDraftSchema).min(1).max(32),
  reason: z.string().max(500).optional(),
});

/**
 * The tool offered to plan items, made by each agent that plans (its schema is checked when it is made, so
 * importing flowstack checks nothing).
 */
export function createUpdatePlanTool(): ToolDefinition {
  return defineTool({
    name: updatePlanToolName,
    description:
      'Rewrite the remaining plan when this step found that later steps must change. Give the whole list: ' +
      'keep the ids of existing items; items you leave out that have not started are dropped; new items need no id. ' +
      'Finished items cannot be changed. The update applies after this step ends.',
    input: updatePlanInput,
    idempotent: true,
    execute: ({ items }) => `Plan update with ${items.length} items recorded; it applies after this step.`,
  }) as ToolDefinition;
}

/** The last successful `update_plan` proposal of a step, if it made one. */
export function readUpdatedPlan(
  events: readonly SkillLoopEvent[],
): { items: TodoItemDraft[]; reason?: string } | undefined {
  const succeeded = new Set(
    events.flatMap((e) =>
      e.type === 'tool-result' && e.result.toolName === updatePlanToolName && e.result.status === 'success'
        ? [e.result.callId]
        : [],
    ),
  );
  let proposal: { items: TodoItemDraft[]; reason?: string } | undefined;
  for (const event of events) {
    if (event.type !== 'tool-call' || event.toolName !== updatePlanToolName || !succeeded.has(event.callId))
      continue;
    try {
      const parsed = updatePlanInput.safeParse(JSON.parse(event.input));
      if (parsed.success) proposal = parsed.data;
    } catch {
      // The pipeline answered malformed arguments with an error, so this call did not succeed.
    }
  }
  return proposal;
}
