import { describe, expect, it } from 'vitest';
import { buildEventTree, type EventTreeNode, type TreeObservation } from './assets/event-tree.js';
import { reducePlan } from './assets/plan-state.js';

let nextId = 1;
const o = (
  turnId: string,
  type: string,
  data: Record<string, unknown>,
  parentId?: string,
): TreeObservation => ({
  id: nextId++,
  turnId,
  type,
  data,
  ...(parentId ? { parentId } : {}),
});

/** The tree as nested labels. */
function shape(nodes: EventTreeNode[]): unknown[] {
  return nodes.map((n) => (n.children.length > 0 ? { [n.label]: shape(n.children) } : n.label));
}

describe('the event tree', () => {
  it('nests each observation under the flow or plan item its parentId names, per turn', () => {
    const tree = buildEventTree([
      o('t1', 'intent', { flow: 'trip', source: 'model' }),
      o('t1', 'plan', {
        planId: 'p1',
        items: [
          { id: 'i1', description: 'Find flights' },
          { id: 'i2', description: 'Book' },
        ],
      }),
      o('t1', 'item-status-change', { itemId: 'i1', from: 'pending', to: 'in_progress' }, 'i1'),
      o('t1', 'flow-push', { flow: 'search_flights', flowId: 'f1', planItemId: 'i1' }, 'f1'),
      o('t1', 'tool-call', { toolName: 'find_flights' }, 'f1'),
      o('t1', 'tool-execution', { toolName: 'find_flights', status: 'success' }, 'f1'),
      o('t1', 'flow-pop', { flow: 'search_flights', status: 'completed' }, 'f1'),
      o('t1', 'final-response', { status: 'completed' }),
      o('t2', 'intent', { flow: 'none', source: 'fast-path' }),
      o('t3', 'intent', { source: 'fast-path', builtIn: 'confirm', strategy: 'script' }),
    ]);
    expect(shape(tree)).toEqual([
      {
        'Turn 1': [
          'Chose trip (by the model)',
          'Planned 2 steps',
          {
            'Step: Find flights': [
              'Find flights → in progress',
              {
                'Search flights': [
                  'Started search flights',
                  'Called find flights',
                  'Find flights succeeded',
                  'Ended search flights (completed)',
                ],
              },
            ],
          },
          'Step: Book',
          'Replied (completed)',
        ],
      },
      { 'Turn 2': ['No task to start (by a rule)'] },
      // A built-in answer has no flow: never "intent → undefined".
      { 'Turn 3': ['Took your answer to its question (by a rule)'] },
    ]);
    // No ids reach the labels.
    expect(JSON.stringify(shape(tree))).not.toMatch(/\bi1\b|\bf1\b|undefined/);
  });
});

describe('the TodoList state', () => {
  it('follows plan, plan-update diffs and item status changes', () => {
    let plan = reducePlan(undefined, { type: 'intent', data: {} });
    expect(plan).toBeUndefined();
    plan = reducePlan(plan, {
      type: 'plan',
      data: {
        planId: 'p',
        items: [
          { id: 'a', description: 'A' },
          { id: 'b', description: 'B' },
        ],
      },
    });
    plan = reducePlan(plan, {
      type: 'item-status-change',
      data: { itemId: 'a', from: 'in_progress', to: 'completed' },
    });
    plan = reducePlan(plan, {
      type: 'plan-update',
      data: {
        planId: 'p',
        changes: {
          added: [{ id: 'c', description: 'C' }],
          modified: [
            {
              before: { id: 'b', description: 'B' },
              after: { id: 'b', description: 'B, better', status: 'pending' },
            },
          ],
          removed: [],
        },
      },
    });
    expect(plan?.items).toEqual([
      { id: 'a', description: 'A', status: 'completed' },
      { id: 'b', description: 'B, better', status: 'pending' },
      { id: 'c', description: 'C', status: 'pending' },
    ]);
    plan = reducePlan(plan, {
      type: 'plan-update',
      data: { planId: 'p', changes: { added: [], modified: [], removed: [{ id: 'c' }] } },
    });
    expect(plan?.items.map((i) => i.id)).toEqual(['a', 'b']);
  });
});

describe('the event tree across turns', () => {
  it('gives a flow that goes on in a later turn a node in that turn, so each turn holds only its events', () => {
    const tree = buildEventTree([
      o('a', 'flow-push', { flow: 'search_flights', flowId: 'f1' }, 'f1'),
      o('a', 'clarification', { question: 'When?' }, 'f1'),
      o('a', 'final-response', { status: 'needs-input' }),
      o('b', 'intent', { flow: 'search_flights', source: 'answer' }, 'f1'),
      o('b', 'tool-call', { toolName: 'find_flights' }, 'f1'),
      o('b', 'final-response', { status: 'completed' }),
    ]);
    expect(shape(tree)).toEqual([
      {
        'Turn 1': [{ 'Search flights': ['Started search flights', 'Asked: When?'] }, 'Replied (needs input)'],
      },
      {
        'Turn 2': [
          { 'Search flights': ['Chose search flights (by your answer)', 'Called find flights'] },
          'Replied (completed)',
        ],
      },
    ]);
  });
});
