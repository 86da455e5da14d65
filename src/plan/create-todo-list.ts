/**
 * Turns drafts into TodoList items: each gets a runtime id, `dependsOn` is translated from the
 * proposer's labels to those ids, and the result is validated together with the items it joins.
 */
import { PlanError } from '../errors/index.js';
import type { TodoItem } from '../spec/index.js';
import type { IdGenerator } from '../util/index.js';
import type { TodoItemDraft } from './todo-item-draft.js';
import { findTodoListProblems, type ValidateTodoListOptions } from './validate-todo-list.js';

export interface MaterializeOptions extends ValidateTodoListOptions {
  ids: IdGenerator;
  /** Items the new ones join; drafts may depend on them by id. */
  existing?: readonly TodoItem[];
}

/**
 * New items from drafts, or a `PlanError` naming every problem in the drafts' own labels (so that a
 * model can be told what to fix). The existing items are not returned.
 */
export function materializeDrafts(drafts: readonly TodoItemDraft[], options: MaterializeOptions): TodoItem[] {
  return materializeWithLabels(drafts, options).items;
}

/** Like `materializeDrafts`, also returning the runtime id given to each draft label. */
export function materializeWithLabels(
  drafts: readonly TodoItemDraft[],
  options: MaterializeOptions,
): { items: TodoItem[]; idsByLabel: ReadonlyMap<string, string> } {
  const existing = options.existing ?? [];
  const labels = drafts.map((d, index) => d.id ?? `#${index + 1}`);
  const problems = findTodoListProblems(
    [
      ...existing,
      ...drafts.map((d, index) => ({
        id: labels[index] as string,
        dependsOn: d.dependsOn ?? [],
        flow: d.flow,
        requiredTools: d.requiredTools,
      })),
    ],
    options,
  );
  if (problems.length > 0)
    throw new PlanError({ reason: 'invalid_plan', message: 'The proposed items are not valid.', problems });
  const runtimeIds = new Map(labels.map((label) => [label, options.ids('item')]));
  const items = drafts.map((draft, index) =>
    toItem(draft, runtimeIds.get(labels[index] as string) as string, runtimeIds),
  );
  return { items, idsByLabel: runtimeIds };
}

/** A TodoList from drafts: the plan's first version. */
export function createTodoList(drafts: readonly TodoItemDraft[], options: MaterializeOptions): TodoItem[] {
  return materializeDrafts(drafts, { ...options, existing: [] });
}

function toItem(draft: TodoItemDraft, id: string, runtimeIds: ReadonlyMap<string, string>): TodoItem {
  const requiredTools = draft.requiredTools ?? [];
  const item: TodoItem = {
    id,
    description: draft.description,
    dependsOn: (draft.dependsOn ?? []).map((d) => runtimeIds.get(d) ?? d),
    stepType: draft.stepType ?? (requiredTools.length > 0 || draft.flow !== undefined ? 'tool' : 'reasoning'),
    requiredTools,
    status: 'pending',
    attempts: 0,
  };
  if (draft.flow !== undefined) item.flow = draft.flow;
  if (draft.slots !== undefined) item.slots = draft.slots;
  if (draft.expectedOutcome !== undefined) item.expectedOutcome = draft.expectedOutcome;
  return item;
}
