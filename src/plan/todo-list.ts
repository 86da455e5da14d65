/**
 * The TodoList as pure transitions (seed 002 outer loop, DESIGN.md invariant 3). Every function returns
 * a new list and leaves its input alone; an impossible change is a `PlanError`, never a silent no-op.
 */
import { PlanError } from '../errors/index.js';
import type { TodoItem, TodoItemStatus } from '../spec/index.js';

/** The statuses an item may move to from each status. Completed, failed and cancelled are final. */
export const todoTransitions: Readonly<Record<TodoItemStatus, readonly TodoItemStatus[]>> = {
  pending: ['in_progress', 'cancelled'],
  in_progress: ['in_progress', 'completed', 'failed', 'waiting', 'cancelled'],
  waiting: ['in_progress', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

/** A dependency in one of these statuses no longer holds its dependents back. */
export function isDependencySatisfied(status: TodoItemStatus): boolean {
  return status === 'completed' || status === 'cancelled';
}

/** Finished for good: completed, failed or cancelled. */
export function isFinalStatus(status: TodoItemStatus): boolean {
  return todoTransitions[status].length === 0;
}

/** The item that is running or waiting for the user; at most one, since items run one at a time. */
export function currentItem(items: readonly TodoItem[]): TodoItem | undefined {
  return items.find((i) => i.status === 'in_progress' || i.status === 'waiting');
}

/** The first pending item whose dependencies are all satisfied, in list order. */
export function nextRunnableItem(items: readonly TodoItem[]): TodoItem | undefined {
  const status = new Map(items.map((i) => [i.id, i.status]));
  return items.find(
    (i) =>
      i.status === 'pending' &&
      i.dependsOn.every((d) => {
        const s = status.get(d);
        return s !== undefined && isDependencySatisfied(s);
      }),
  );
}

/** No item is pending, running or waiting. */
export function isTodoListSettled(items: readonly TodoItem[]): boolean {
  return items.every((i) => isFinalStatus(i.status));
}

export interface ItemChange {
  status?: TodoItemStatus;
  summary?: string;
  runTurnId?: string;
}

/** Changes one item; a status change must follow `todoTransitions`. */
export function updateItem(items: readonly TodoItem[], id: string, change: ItemChange): TodoItem[] {
  const index = items.findIndex((i) => i.id === id);
  const item = items[index];
  if (!item) throw new PlanError({ reason: 'unknown_item', message: `The plan has no item '${id}'.` });
  if (change.status !== undefined && !todoTransitions[item.status].includes(change.status)) {
    throw new PlanError({
      reason: 'illegal_transition',
      message: `Item '${id}' cannot go from ${item.status} to ${change.status}.`,
    });
  }
  const next: TodoItem = { ...item };
  if (change.status !== undefined) next.status = change.status;
  if (change.summary !== undefined) next.summary = change.summary;
  if (change.runTurnId !== undefined) next.runTurnId = change.runTurnId;
  return items.map((i, n) => (n === index ? next : i));
}

/**
 * Marks an item `in_progress` and counts the run. The turn id that keys its tool calls is set once: a
 * run resumed after a restart keeps it, so the journal answers calls that already finished.
 */
export function startItem(items: readonly TodoItem[], id: string, turnId: string): TodoItem[] {
  const started = updateItem(items, id, { status: 'in_progress' });
  return started.map((i) =>
    i.id === id ? { ...i, attempts: i.attempts + 1, runTurnId: i.runTurnId ?? turnId } : i,
  );
}

/** Cancels every pending item (the plan stops), with the reason as their summary. */
export function cancelPendingItems(
  items: readonly TodoItem[],
  summary: string,
): { items: TodoItem[]; cancelled: string[] } {
  const cancelled = items.filter((i) => i.status === 'pending').map((i) => i.id);
  return {
    items: items.map((i) => (i.status === 'pending' ? { ...i, status: 'cancelled', summary } : i)),
    cancelled,
  };
}

/** Cancels the items that are not final (abandonment): pending, running and waiting ones. */
export function cancelOpenItems(
  items: readonly TodoItem[],
  summary: string,
): { items: TodoItem[]; cancelled: string[] } {
  const open = (i: TodoItem) => !isFinalStatus(i.status);
  return {
    items: items.map((i) => (open(i) ? { ...i, status: 'cancelled', summary } : i)),
    cancelled: items.filter(open).map((i) => i.id),
  };
}

/**
 * Cancels pending items that can never run because something they depend on, directly or through
 * other items, failed.
 */
export function cancelBlockedItems(items: readonly TodoItem[]): { items: TodoItem[]; cancelled: string[] } {
  const failed = new Set(items.filter((i) => i.status === 'failed').map((i) => i.id));
  const blockedBy = new Map<string, string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const item of items) {
      if (item.status !== 'pending' || blockedBy.has(item.id)) continue;
      const cause = item.dependsOn.find((d) => failed.has(d) || blockedBy.has(d));
      if (cause === undefined) continue;
      blockedBy.set(item.id, blockedBy.get(cause) ?? cause);
      grew = true;
    }
  }
  return {
    items: items.map((i) => {
      const cause = blockedBy.get(i.id);
      return cause === undefined
        ? i
        : { ...i, status: 'cancelled', summary: `not run: the step it depends on (${cause}) failed` };
    }),
    cancelled: [...blockedBy.keys()],
  };
}

/** How far the plan is (e.g. 2 of 4 done), for replies and observations. */
export function planProgress(items: readonly TodoItem[]): Record<TodoItemStatus, number> & { total: number } {
  const counts = { pending: 0, in_progress: 0, completed: 0, failed: 0, cancelled: 0, waiting: 0 };
  for (const item of items) counts[item.status] += 1;
  return { ...counts, total: items.length };
}
