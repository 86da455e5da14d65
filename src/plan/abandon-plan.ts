/**
 * Plan abandonment (seed 001, DESIGN.md invariant 3): the Plan flow is marked Invalid, so is every
 * sub-flow carrying its id, and all of them are popped; items that had not finished are cancelled.
 */
import { popFinishedFlows } from '../flow/index.js';
import type { FlowInstance, TodoItem } from '../spec/index.js';
import { cancelOpenItems } from './todo-list.js';

export interface AbandonedPlan {
  stack: FlowInstance[];
  popped: FlowInstance[];
  items: TodoItem[];
  cancelled: string[];
}

export function abandonPlan(options: {
  stack: readonly FlowInstance[];
  planId: string;
  items: readonly TodoItem[];
  reason: string;
}): AbandonedPlan {
  const marked = options.stack.map((f) =>
    f.id === options.planId || f.planId === options.planId ? { ...f, status: 'invalid' as const } : f,
  );
  const { stack, popped } = popFinishedFlows(marked);
  const { items, cancelled } = cancelOpenItems(
    options.items,
    `not run: the plan was abandoned (${options.reason})`,
  );
  return { stack, popped, items, cancelled };
}
