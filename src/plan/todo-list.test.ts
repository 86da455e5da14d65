import { describe, expect, it } from 'vitest';
import { PlanError } from '../errors/index.js';
import type { TodoItem } from '../spec/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createTodoList } from './create-todo-list.js';
import {
  cancelBlockedItems,
  currentItem,
  isTodoListSettled,
  nextRunnableItem,
  planProgress,
  startItem,
  updateItem,
} from './todo-list.js';
import { assertValidTodoList, findTodoListProblems } from './validate-todo-list.js';

const list = () =>
  createTodoList(
    [
      { id: 'fetch', description: 'Fetch the sales figures', requiredTools: ['query_sales'] },
      { id: 'chart', description: 'Chart them', dependsOn: ['fetch'] },
      { id: 'costs', description: 'Fetch the costs', requiredTools: ['query_costs'] },
      { id: 'report', description: 'Write the report', dependsOn: ['chart', 'costs'] },
    ],
    { ids: createSequentialIdGenerator() },
  );

describe('TodoList transitions', () => {
  it('gives items runtime ids, translates dependencies, and infers the step type', () => {
    const items = list();
    expect(items.map((i) => [i.id, i.dependsOn, i.stepType, i.status])).toEqual([
      ['item_1', [], 'tool', 'pending'],
      ['item_2', ['item_1'], 'reasoning', 'pending'],
      ['item_3', [], 'tool', 'pending'],
      ['item_4', ['item_2', 'item_3'], 'reasoning', 'pending'],
    ]);
  });

  it('runs the first pending item whose dependencies are completed, in list order', () => {
    let items = list();
    expect(nextRunnableItem(items)?.id).toBe('item_1');
    items = startItem(items, 'item_1', 'turn_1');
    expect(currentItem(items)?.id).toBe('item_1');
    expect(nextRunnableItem(items)?.id).toBe('item_3');
    items = updateItem(items, 'item_1', { status: 'completed', summary: '12 rows' });
    expect(nextRunnableItem(items)?.id).toBe('item_2');
    items = updateItem(startItem(items, 'item_2', 'turn_1'), 'item_2', { status: 'completed' });
    items = updateItem(startItem(items, 'item_3', 'turn_1'), 'item_3', { status: 'completed' });
    expect(nextRunnableItem(items)?.id).toBe('item_4');
    items = updateItem(startItem(items, 'item_4', 'turn_1'), 'item_4', { status: 'completed' });
    expect(isTodoListSettled(items)).toBe(true);
    expect(planProgress(items)).toMatchObject({ completed: 4, total: 4 });
  });

  it('keeps the turn id of the first run when a run is resumed, and counts attempts', () => {
    let items = startItem(list(), 'item_1', 'turn_1');
    items = startItem(items, 'item_1', 'turn_9');
    expect(items[0]).toMatchObject({ runTurnId: 'turn_1', attempts: 2, status: 'in_progress' });
  });

  it('refuses a status an item cannot reach, and an unknown item, with typed errors', () => {
    const items = list();
    const completed = updateItem(startItem(items, 'item_1', 't'), 'item_1', { status: 'completed' });
    const error = (() => {
      try {
        updateItem(completed, 'item_1', { status: 'pending' });
      } catch (e) {
        return e;
      }
    })();
    expect(PlanError.isInstance(error)).toBe(true);
    expect((error as PlanError).reason).toBe('illegal_transition');
    expect(() => updateItem(items, 'item_1', { status: 'completed' })).toThrow(/pending to completed/);
    expect(() => updateItem(items, 'nope', { summary: 'x' })).toThrow(PlanError);
  });

  it('cancels the pending items a failed item blocks, directly and through others', () => {
    let items = updateItem(startItem(list(), 'item_1', 't'), 'item_1', { status: 'failed' });
    const blocked = cancelBlockedItems(items);
    expect(blocked.cancelled.sort()).toEqual(['item_2', 'item_4']);
    items = blocked.items;
    expect(items.find((i) => i.id === 'item_4')?.summary).toContain('item_1');
    expect(nextRunnableItem(items)?.id).toBe('item_3');
  });

  it('treats a cancelled (pruned) dependency as no longer holding its dependents back', () => {
    let items = list();
    items = items.map((i) => (i.id === 'item_2' ? { ...i, status: 'cancelled' as const } : i));
    items = updateItem(startItem(items, 'item_1', 't'), 'item_1', { status: 'completed' });
    items = updateItem(startItem(items, 'item_3', 't'), 'item_3', { status: 'completed' });
    expect(nextRunnableItem(items)?.id).toBe('item_4');
  });
});

describe('TodoList validation', () => {
  const item = (id: string, dependsOn: string[] = []): Pick<TodoItem, 'id' | 'dependsOn'> => ({
    id,
    dependsOn,
  });

  it('finds cycles, self-dependencies, unknown dependencies and duplicate ids', () => {
    const problems = findTodoListProblems([
      item('a', ['c']),
      item('b', ['a']),
      item('c', ['b']),
      item('d', ['d']),
      item('e', ['ghost']),
      item('e'),
    ]);
    expect(problems).toEqual(
      expect.arrayContaining([
        { kind: 'cycle', itemIds: ['a', 'c', 'b', 'a'] },
        { kind: 'cycle', itemIds: ['d', 'd'] },
        { kind: 'unknown-dependency', itemId: 'e', dependency: 'ghost' },
        { kind: 'duplicate-id', itemId: 'e' },
      ]),
    );
  });

  it('checks flows and tools against the catalog, and the size bound', () => {
    const problems = findTodoListProblems(
      [
        { id: 'a', dependsOn: [], flow: 'nope' },
        { id: 'b', dependsOn: [], requiredTools: ['ghost_tool'] },
      ],
      { catalog: { flows: new Set(['search']), tools: new Set(['query']) }, maxItems: 1 },
    );
    expect(problems).toEqual([
      { kind: 'too-many-items', count: 2, max: 1 },
      { kind: 'unknown-flow', itemId: 'a', flow: 'nope' },
      { kind: 'unknown-tool', itemId: 'b', tool: 'ghost_tool' },
    ]);
  });

  it('raises a PlanError listing every problem, in the proposer’s own labels', () => {
    let error: unknown;
    try {
      createTodoList(
        [
          { id: 'x', description: 'x', dependsOn: ['y'] },
          { id: 'y', description: 'y', dependsOn: ['x'] },
          { description: 'z', dependsOn: ['w'] },
        ],
        { ids: createSequentialIdGenerator() },
      );
    } catch (e) {
      error = e;
    }
    expect(PlanError.isInstance(error)).toBe(true);
    const planError = error as PlanError;
    expect(planError.reason).toBe('invalid_plan');
    expect(planError.message).toContain('x → y → x');
    expect(planError.message).toContain("'#3' depends on 'w'");
    expect(() => assertValidTodoList([])).toThrow(/no items/);
  });

  it('survives a JSON round trip', () => {
    const items = list();
    expect(JSON.parse(JSON.stringify(items))).toEqual(items);
  });
});
