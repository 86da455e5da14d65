/**
 * What changed between two versions of a TodoList, for `plan-update` observations (seed 002 change
 * tracking): items added, items removed, and items modified with their state before and after. An item
 * counts as moved only when its order relative to the other items changed — inserting an item before
 * others shifts their positions but moves none of them.
 */
import type { PositionedTodoItem, TodoItem, TodoItemChange, TodoListChanges } from '../spec/index.js';
import { equalJson } from './internal/equal-json.js';

export function diffTodoList(before: readonly TodoItem[], after: readonly TodoItem[]): TodoListChanges {
  const beforeIndex = new Map(before.map((item, position) => [item.id, position]));
  const afterIds = new Set(after.map((item) => item.id));
  const common = after.filter((item) => beforeIndex.has(item.id));
  const stayed = longestIncreasingRun(common.map((item) => beforeIndex.get(item.id) as number));
  const unmoved = new Set(stayed.map((index) => (common[index] as TodoItem).id));
  const added: PositionedTodoItem[] = [];
  const modified: TodoItemChange[] = [];
  after.forEach((item, position) => {
    const oldPosition = beforeIndex.get(item.id);
    if (oldPosition === undefined) {
      added.push({ ...item, position });
      return;
    }
    const old = before[oldPosition] as TodoItem;
    const fields = changedFields(old, item);
    if (!unmoved.has(item.id)) fields.push('position');
    if (fields.length > 0)
      modified.push({
        id: item.id,
        before: { ...old, position: oldPosition },
        after: { ...item, position },
        fields,
      });
  });
  const removed: PositionedTodoItem[] = [];
  before.forEach((item, position) => {
    if (!afterIds.has(item.id)) removed.push({ ...item, position });
  });
  return { added, modified, removed };
}

/** Whether a diff records any change. */
export function hasChanges(changes: TodoListChanges): boolean {
  return changes.added.length + changes.modified.length + changes.removed.length > 0;
}

function changedFields(before: TodoItem, after: TodoItem): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const left = before as unknown as Record<string, unknown>;
  const right = after as unknown as Record<string, unknown>;
  return [...keys].filter((key) => !equalJson(left[key], right[key])).sort();
}

/** Indexes (into `values`) of one longest strictly increasing subsequence; O(n log n). */
function longestIncreasingRun(values: readonly number[]): number[] {
  const tails: number[] = [];
  const previous: number[] = new Array(values.length).fill(-1);
  values.forEach((value, index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((values[tails[middle] as number] as number) < value) low = middle + 1;
      else high = middle;
    }
    if (low > 0) previous[index] = tails[low - 1] as number;
    tails[low] = index;
  });
  const run: number[] = [];
  for (let index = tails.at(-1) ?? -1; index >= 0; index = previous[index] as number) run.unshift(index);
  return run;
}
