/**
 * Applies a plan rewritten from inside a step (`updatedPlan`, seed 002) or by a user's refinement, so
 * that it can change only the future: items that already ran, run now or wait keep their status, content
 * and place; pending items may be edited, reordered or dropped; new items get runtime ids. A proposal
 * that would leave the list invalid (a cycle, an unknown dependency …) is refused as a whole.
 */
import { PlanError, type PlanProblem } from '../errors/index.js';
import type { TodoItem } from '../spec/index.js';
import { materializeWithLabels } from './create-todo-list.js';
import type { TodoItemDraft } from './todo-item-draft.js';
import { findTodoListProblems, type PlanCatalog } from './validate-todo-list.js';

export interface SanitizeOptions {
  ids: (prefix: string) => string;
  catalog?: PlanCatalog;
  maxItems?: number;
}

export type SanitizeResult = { ok: true; items: TodoItem[] } | { ok: false; problems: PlanProblem[] };

export function sanitizeUpdatedPlan(
  current: readonly TodoItem[],
  proposal: readonly TodoItemDraft[],
  options: SanitizeOptions,
): SanitizeResult {
  const byId = new Map(current.map((item) => [item.id, item]));
  const mentioned = new Set<string>();
  const fresh: { index: number; draft: TodoItemDraft }[] = [];
  const pendingOrder: (TodoItem | number)[] = [];
  proposal.forEach((draft, index) => {
    const existing = draft.id === undefined ? undefined : byId.get(draft.id);
    if (existing && !mentioned.has(existing.id)) {
      mentioned.add(existing.id);
      if (existing.status === 'pending') pendingOrder.push(editPending(existing, draft));
      return;
    }
    fresh.push({ index, draft });
    pendingOrder.push(fresh.length - 1);
  });
  const removed = new Set(
    current.filter((i) => i.status === 'pending' && !mentioned.has(i.id)).map((i) => i.id),
  );
  const edited = new Map(
    pendingOrder.filter((e): e is TodoItem => typeof e !== 'number').map((e) => [e.id, e]),
  );
  const kept = current
    .filter((i) => !removed.has(i.id))
    .map((i) => withoutRemoved(edited.get(i.id) ?? i, removed));
  let created: { items: TodoItem[]; idsByLabel: ReadonlyMap<string, string> };
  try {
    created = materializeWithLabels(
      fresh.map(({ draft }) => ({
        ...draft,
        dependsOn: (draft.dependsOn ?? []).filter((d) => !removed.has(d)),
      })),
      { ids: options.ids, existing: kept, ...catalogOptions(options) },
    );
  } catch (error) {
    if (PlanError.isInstance(error)) return { ok: false, problems: error.problems };
    throw error;
  }
  const translate = (item: TodoItem): TodoItem => ({
    ...item,
    dependsOn: item.dependsOn.map((d) => (byId.has(d) ? d : (created.idsByLabel.get(d) ?? d))),
  });
  const sequence = pendingOrder.map((entry) =>
    typeof entry === 'number'
      ? (created.items[entry] as TodoItem)
      : translate(withoutRemoved(entry, removed)),
  );
  const items: TodoItem[] = [];
  for (const item of kept) {
    if (item.status !== 'pending') items.push(item);
    else {
      const next = sequence.shift();
      if (next) items.push(next);
    }
  }
  items.push(...sequence);
  const problems = findTodoListProblems(items, catalogOptions(options));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, items };
}

/** A pending item with the draft's fields; fields the draft leaves out keep their value. */
function editPending(item: TodoItem, draft: TodoItemDraft): TodoItem {
  const next: TodoItem = { ...item, description: draft.description };
  if (draft.flow !== undefined) next.flow = draft.flow;
  if (draft.slots !== undefined) next.slots = draft.slots;
  if (draft.dependsOn !== undefined) next.dependsOn = draft.dependsOn;
  if (draft.stepType !== undefined) next.stepType = draft.stepType;
  if (draft.requiredTools !== undefined) next.requiredTools = draft.requiredTools;
  if (draft.expectedOutcome !== undefined) next.expectedOutcome = draft.expectedOutcome;
  return next;
}

function withoutRemoved(item: TodoItem, removed: ReadonlySet<string>): TodoItem {
  return item.dependsOn.some((d) => removed.has(d))
    ? { ...item, dependsOn: item.dependsOn.filter((d) => !removed.has(d)) }
    : item;
}

function catalogOptions(options: SanitizeOptions): { catalog?: PlanCatalog; maxItems?: number } {
  return {
    ...(options.catalog ? { catalog: options.catalog } : {}),
    ...(options.maxItems !== undefined ? { maxItems: options.maxItems } : {}),
  };
}
