import { describe, expect, it } from 'vitest';
import type { TodoItem } from '../spec/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createTodoList } from './create-todo-list.js';
import { diffTodoList, hasChanges } from './diff-todo-list.js';
import { applyFailurePolicy, replaceFailedItem } from './failure-policy.js';
import { applyReplanDecision } from './replan-decision.js';
import { sanitizeUpdatedPlan } from './sanitize-updated-plan.js';
import { startItem, updateItem } from './todo-list.js';

function setup() {
  const ids = createSequentialIdGenerator();
  const items = createTodoList(
    [
      { id: 'a', description: 'A' },
      { id: 'b', description: 'B', dependsOn: ['a'] },
      { id: 'c', description: 'C', dependsOn: ['a'] },
      { id: 'd', description: 'D', dependsOn: ['b', 'c'] },
    ],
    { ids },
  );
  const afterA = updateItem(startItem(items, 'item_1', 'turn_1'), 'item_1', {
    status: 'completed',
    summary: 'ok',
  });
  return { ids, items: afterA };
}
const order = (items: readonly TodoItem[]) => items.map((i) => `${i.id}:${i.status}`);

describe('diffTodoList', () => {
  it('reports nothing for equal lists', () => {
    const { items } = setup();
    expect(hasChanges(diffTodoList(items, structuredClone(items)))).toBe(false);
  });

  it('reports a status change with the item before and after', () => {
    const { items } = setup();
    const after = startItem(items, 'item_2', 'turn_1');
    const changes = diffTodoList(items, after);
    expect(changes.added).toEqual([]);
    expect(changes.removed).toEqual([]);
    expect(changes.modified).toHaveLength(1);
    expect(changes.modified[0]).toMatchObject({
      id: 'item_2',
      fields: ['attempts', 'runTurnId', 'status'],
      before: { status: 'pending', position: 1 },
      after: { status: 'in_progress', position: 1 },
    });
  });

  it('reports an insertion as added without calling the shifted items moved', () => {
    const { items, ids } = setup();
    const expanded = applyReplanDecision(
      items,
      { decision: 'expand', items: [{ description: 'E', dependsOn: ['item_1'] }] },
      { ids },
    );
    if (!expanded.ok) throw new Error(expanded.problem);
    const changes = diffTodoList(items, expanded.items);
    expect(changes.added.map((i) => [i.id, i.description, i.position, i.dependsOn])).toEqual([
      ['item_5', 'E', 1, ['item_1']],
    ]);
    expect(changes.modified).toEqual([]);
    expect(changes.removed).toEqual([]);
  });

  it('reports a reorder as the moved item with its positions', () => {
    const { items, ids } = setup();
    const reordered = applyReplanDecision(
      items,
      { decision: 'reorder', order: ['item_3', 'item_2'] },
      { ids },
    );
    if (!reordered.ok) throw new Error(reordered.problem);
    expect(order(reordered.items)).toEqual([
      'item_1:completed',
      'item_3:pending',
      'item_2:pending',
      'item_4:pending',
    ]);
    const changes = diffTodoList(items, reordered.items);
    expect(changes.modified).toHaveLength(1);
    expect(changes.modified[0]).toMatchObject({ fields: ['position'] });
    expect([changes.modified[0]?.before.position, changes.modified[0]?.after.position]).not.toEqual([1, 1]);
  });

  it('reports removed items with their last state', () => {
    const { items } = setup();
    const changes = diffTodoList(items, items.slice(0, 3));
    expect(changes.removed).toMatchObject([{ id: 'item_4', position: 3, status: 'pending' }]);
  });
});

describe('applyReplanDecision', () => {
  it('prunes pending items by cancelling them with the reason', () => {
    const { items, ids } = setup();
    const pruned = applyReplanDecision(
      items,
      { decision: 'prune', itemIds: ['item_3'], reason: 'A had it' },
      { ids },
    );
    if (!pruned.ok) throw new Error(pruned.problem);
    expect(pruned.items[2]).toMatchObject({ status: 'cancelled', summary: 'pruned: A had it' });
    expect(diffTodoList(items, pruned.items).modified).toMatchObject([
      {
        id: 'item_3',
        fields: ['status', 'summary'],
        before: { status: 'pending' },
        after: { status: 'cancelled' },
      },
    ]);
  });

  it('refuses decisions about unknown or finished items, and expansions with cycles', () => {
    const { items, ids } = setup();
    expect(applyReplanDecision(items, { decision: 'prune', itemIds: ['item_1'] }, { ids })).toMatchObject({
      ok: false,
    });
    expect(applyReplanDecision(items, { decision: 'reorder', order: ['ghost'] }, { ids })).toMatchObject({
      ok: false,
    });
    const cyclic = applyReplanDecision(
      items,
      {
        decision: 'expand',
        items: [
          { id: 'x', description: 'X', dependsOn: ['y'] },
          { id: 'y', description: 'Y', dependsOn: ['x'] },
        ],
      },
      { ids },
    );
    expect(cyclic).toMatchObject({ ok: false, problem: expect.stringContaining('cycle') });
  });
});

describe('sanitizeUpdatedPlan', () => {
  it('keeps finished items as they were, edits and reorders pending ones, adds new ones with runtime ids', () => {
    const { items, ids } = setup();
    const result = sanitizeUpdatedPlan(
      items,
      [
        { id: 'item_1', description: 'A rewritten' },
        { id: 'item_3', description: 'C, narrower' },
        { id: 'new', description: 'N', dependsOn: ['item_3'] },
        { id: 'item_4', description: 'D', dependsOn: ['new'] },
      ],
      { ids },
    );
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.items.map((i) => [i.id, i.description, i.status, i.dependsOn])).toEqual([
      ['item_1', 'A', 'completed', []],
      ['item_3', 'C, narrower', 'pending', ['item_1']],
      ['item_5', 'N', 'pending', ['item_3']],
      ['item_4', 'D', 'pending', ['item_5']],
    ]);
    const changes = diffTodoList(items, result.items);
    expect(changes.removed.map((i) => i.id)).toEqual(['item_2']);
    expect(changes.added.map((i) => i.id)).toEqual(['item_5']);
  });

  it('never lets a proposal change or drop a completed item', () => {
    const { items, ids } = setup();
    const result = sanitizeUpdatedPlan(items, [{ id: 'item_2', description: 'B' }], { ids });
    if (!result.ok) throw new Error('refused');
    expect(result.items[0]).toEqual(items[0]);
  });

  it('refuses a proposal that would make a cycle, and leaves the plan as it was', () => {
    const { items, ids } = setup();
    const result = sanitizeUpdatedPlan(
      items,
      [
        { id: 'item_2', description: 'B', dependsOn: ['item_3'] },
        { id: 'item_3', description: 'C', dependsOn: ['item_2'] },
      ],
      { ids },
    );
    expect(result).toMatchObject({ ok: false, problems: [{ kind: 'cycle' }] });
  });
});

describe('failure policies', () => {
  const failB = () => {
    const { items, ids } = setup();
    return {
      ids,
      items: updateItem(startItem(items, 'item_2', 't'), 'item_2', { status: 'failed', summary: 'boom' }),
    };
  };

  it('stop-and-synthesize cancels every pending item', () => {
    const step = applyFailurePolicy(failB().items, 'item_2', 'stop-and-synthesize');
    expect(step.next).toBe('synthesize');
    expect(order(step.items)).toEqual([
      'item_1:completed',
      'item_2:failed',
      'item_3:cancelled',
      'item_4:cancelled',
    ]);
  });

  it('skip-and-continue cancels only what depends on the failed item', () => {
    const step = applyFailurePolicy(failB().items, 'item_2', 'skip-and-continue');
    expect(step.next).toBe('continue');
    expect(order(step.items)).toEqual([
      'item_1:completed',
      'item_2:failed',
      'item_3:pending',
      'item_4:cancelled',
    ]);
  });

  it('re-route asks for a replacement once, which takes over the failed item’s dependents', () => {
    const { items, ids } = failB();
    expect(applyFailurePolicy(items, 'item_2', 're-route').next).toBe('reroute');
    const replaced = replaceFailedItem(
      items,
      'item_2',
      { description: 'B another way', requiredTools: ['x'] },
      { ids },
    );
    if (!replaced.ok) throw new Error(replaced.problem);
    expect(replaced.items.map((i) => [i.id, i.status, i.dependsOn, i.replaces])).toEqual([
      ['item_1', 'completed', [], undefined],
      ['item_2', 'failed', ['item_1'], undefined],
      ['item_5', 'pending', [], 'item_2'],
      ['item_3', 'pending', ['item_1'], undefined],
      ['item_4', 'pending', ['item_5', 'item_3'], undefined],
    ]);
    const failedAgain = updateItem(startItem(replaced.items, 'item_5', 't'), 'item_5', { status: 'failed' });
    const step = applyFailurePolicy(failedAgain, 'item_5', 're-route');
    expect(step.next).toBe('continue');
    expect(step.items.find((i) => i.id === 'item_4')?.status).toBe('cancelled');
  });
});
