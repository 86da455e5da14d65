/**
 * What a plan does when an item fails, set per agent (seed 001 failure recovery): stop and synthesize
 * from what is done, skip the item (and whatever depends on it) and continue, or re-route it to a
 * replacement step once. Pure; the re-route replacement is proposed by the model in the shell.
 */
import { describePlanProblem, PlanError } from '../errors/index.js';
import type { FailurePolicy, TodoItem } from '../spec/index.js';
import type { IdGenerator } from '../util/index.js';
import { materializeDrafts } from './create-todo-list.js';
import type { TodoItemDraft } from './todo-item-draft.js';
import { cancelBlockedItems, cancelPendingItems } from './todo-list.js';
import type { PlanCatalog } from './validate-todo-list.js';

export type FailureStep =
  | { next: 'synthesize'; items: TodoItem[] }
  | { next: 'continue'; items: TodoItem[] }
  | { next: 'reroute'; items: TodoItem[] };

export function applyFailurePolicy(
  items: readonly TodoItem[],
  failedId: string,
  policy: FailurePolicy,
): FailureStep {
  const failed = items.find((i) => i.id === failedId);
  if (failed?.status !== 'failed')
    throw new PlanError({ reason: 'unknown_item', message: `Item '${failedId}' has not failed.` });
  if (policy === 'stop-and-synthesize')
    return {
      next: 'synthesize',
      items: cancelPendingItems(items, `not run: the plan stopped after ${failedId} failed`).items,
    };
  // A replacement that fails too is skipped rather than re-routed again, so re-routing is bounded.
  if (policy === 're-route' && failed.replaces === undefined) return { next: 'reroute', items: [...items] };
  return { next: 'continue', items: cancelBlockedItems(items).items };
}

/**
 * Puts a replacement right after a failed item and points the failed item's dependents at it. Without
 * a usable replacement the plan skips the failed item instead.
 */
export function replaceFailedItem(
  items: readonly TodoItem[],
  failedId: string,
  replacement: TodoItemDraft,
  options: { ids: IdGenerator; catalog?: PlanCatalog; maxItems?: number },
): { ok: true; items: TodoItem[] } | { ok: false; problem: string } {
  let created: TodoItem;
  try {
    [created] = materializeDrafts([{ ...replacement, id: undefined }], { ...options, existing: items }) as [
      TodoItem,
    ];
  } catch (error) {
    if (!PlanError.isInstance(error)) throw error;
    return { ok: false, problem: error.problems.map(describePlanProblem).join('; ') };
  }
  const item: TodoItem = { ...created, replaces: failedId };
  const at = items.findIndex((i) => i.id === failedId);
  const rewired = items.map((i) =>
    i.status === 'pending' && i.dependsOn.includes(failedId)
      ? { ...i, dependsOn: i.dependsOn.map((d) => (d === failedId ? item.id : d)) }
      : i,
  );
  return { ok: true, items: [...rewired.slice(0, at + 1), item, ...rewired.slice(at + 1)] };
}
