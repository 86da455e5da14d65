/**
 * The replanning check after an item (seed 001): a small structured decision — continue, reorder,
 * expand (new items), prune (cancel pending items) — and its pure applier. A decision that names unknown
 * or already-started items, or would make the list invalid, is refused and the plan goes on unchanged.
 */
import { z } from 'zod';
import { describePlanProblem, PlanError } from '../errors/index.js';
import type { TodoItem } from '../spec/index.js';
import type { IdGenerator } from '../util/index.js';
import { materializeDrafts } from './create-todo-list.js';
import { type TodoItemDraft, todoItemDraftSchema } from './todo-item-draft.js';
import type { PlanCatalog } from './validate-todo-list.js';

export type ReplanDecision =
  | { decision: 'continue'; reason?: string }
  | { decision: 'reorder'; order: string[]; reason?: string }
  | { decision: 'expand'; items: TodoItemDraft[]; reason?: string }
  | { decision: 'prune'; itemIds: string[]; reason?: string };

export const replanDecisionSchema: z.ZodType<ReplanDecision> = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('continue'), reason: z.string().optional() }),
  z.object({
    decision: z.literal('reorder'),
    order: z.array(z.string()).min(1),
    reason: z.string().optional(),
  }),
  z.object({
    decision: z.literal('expand'),
    items: z.array(todoItemDraftSchema).min(1).max(8),
    reason: z.string().optional(),
  }),
  z.object({
    decision: z.literal('prune'),
    itemIds: z.array(z.string()).min(1),
    reason: z.string().optional(),
  }),
]);

export interface ApplyReplanOptions {
  ids: IdGenerator;
  catalog?: PlanCatalog;
  maxItems?: number;
}

export type ReplanResult = { ok: true; items: TodoItem[] } | { ok: false; problem: string };

export function applyReplanDecision(
  items: readonly TodoItem[],
  decision: ReplanDecision,
  options: ApplyReplanOptions,
): ReplanResult {
  const pending = new Set(items.filter((i) => i.status === 'pending').map((i) => i.id));
  switch (decision.decision) {
    case 'continue':
      return { ok: true, items: [...items] };
    case 'reorder': {
      const wrong = decision.order.filter((id) => !pending.has(id));
      if (wrong.length > 0 || new Set(decision.order).size !== decision.order.length)
        return {
          ok: false,
          problem: `reorder must list pending items once each; not pending: ${wrong.join(', ')}`,
        };
      const listed = decision.order.map((id) => items.find((i) => i.id === id) as TodoItem);
      const rest = items.filter((i) => i.status === 'pending' && !decision.order.includes(i.id));
      const sequence = [...listed, ...rest];
      return {
        ok: true,
        items: items.map((i) => (i.status === 'pending' ? (sequence.shift() as TodoItem) : i)),
      };
    }
    case 'expand': {
      let added: TodoItem[];
      try {
        added = materializeDrafts(decision.items, { ...options, existing: items });
      } catch (error) {
        if (!PlanError.isInstance(error)) throw error;
        return { ok: false, problem: error.problems.map(describePlanProblem).join('; ') };
      }
      const at = items.findIndex((i) => i.status === 'pending');
      const index = at < 0 ? items.length : at;
      return { ok: true, items: [...items.slice(0, index), ...added, ...items.slice(index)] };
    }
    case 'prune': {
      const wrong = decision.itemIds.filter((id) => !pending.has(id));
      if (wrong.length > 0)
        return { ok: false, problem: `only pending items can be pruned; not pending: ${wrong.join(', ')}` };
      const summary = `pruned${decision.reason ? `: ${decision.reason}` : ''}`;
      return {
        ok: true,
        items: items.map((i) =>
          decision.itemIds.includes(i.id) ? { ...i, status: 'cancelled', summary } : i,
        ),
      };
    }
  }
}
