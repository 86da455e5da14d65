/**
 * The flow stack as pure transitions (seed 001, DESIGN.md invariants 1–2). The top of the stack is the
 * last element. Every function returns a new stack and leaves its input alone.
 */
import { StackDepthError } from '../errors/index.js';
import type { FlowInstance } from '../spec/index.js';

/** Default bound on stack depth (DESIGN.md §5). */
export const defaultMaxStackDepth = 8;

export function activeFlow(stack: readonly FlowInstance[]): FlowInstance | undefined {
  const top = stack.at(-1);
  return top?.status === 'active' ? top : undefined;
}

/**
 * Puts a flow on top and makes it Active; the previous top becomes Pending. A flow of the same name
 * that is already Active stays as it is (its slots are merged); one that is Pending is moved to the top.
 */
export function pushFlow(
  stack: readonly FlowInstance[],
  flow: FlowInstance,
  options: { maxDepth?: number } = {},
): FlowInstance[] {
  const maxDepth = options.maxDepth ?? defaultMaxStackDepth;
  const existing = stack.findIndex(
    (f) =>
      f.name === flow.name && (f.status === 'active' || f.status === 'pending') && f.planId === flow.planId,
  );
  if (existing >= 0) {
    const found = stack[existing] as FlowInstance;
    const merged: FlowInstance = { ...found, slots: { ...found.slots, ...flow.slots }, status: 'active' };
    const rest = stack.filter((_, i) => i !== existing).map(demote);
    return [...rest, merged];
  }
  if (stack.length >= maxDepth) throw new StackDepthError({ maxDepth, flowName: flow.name });
  return [...stack.map(demote), { ...flow, status: 'active' }];
}

/** Marks the active flow Completed with its result. */
export function completeActiveFlow(stack: readonly FlowInstance[], result: unknown): FlowInstance[] {
  return updateActive(stack, (f) => ({ ...f, status: 'completed', result }));
}

/** Marks the active flow Invalid (wrongly predicted, or failed hard). */
export function invalidateActiveFlow(stack: readonly FlowInstance[]): FlowInstance[] {
  return updateActive(stack, (f) => ({ ...f, status: 'invalid' }));
}

/** Replaces the active flow's slots with `slots` merged over them. */
export function updateActiveSlots(
  stack: readonly FlowInstance[],
  slots: Record<string, unknown>,
): FlowInstance[] {
  return updateActive(stack, (f) => ({ ...f, slots: { ...f.slots, ...slots } }));
}

/**
 * Pops every Completed or Invalid flow (wherever it sits), then activates the new top. Returns the
 * new stack and the popped flows, in pop order.
 */
export function popFinishedFlows(stack: readonly FlowInstance[]): {
  stack: FlowInstance[];
  popped: FlowInstance[];
} {
  const popped = stack.filter((f) => f.status === 'completed' || f.status === 'invalid').reverse();
  const kept = stack.filter((f) => f.status === 'pending' || f.status === 'active');
  const top = kept.at(-1);
  if (top && top.status === 'pending') kept[kept.length - 1] = { ...top, status: 'active' };
  return { stack: kept, popped };
}

function demote(flow: FlowInstance): FlowInstance {
  return flow.status === 'active' ? { ...flow, status: 'pending' } : flow;
}

function updateActive(
  stack: readonly FlowInstance[],
  change: (flow: FlowInstance) => FlowInstance,
): FlowInstance[] {
  const top = activeFlow(stack);
  if (!top) return [...stack];
  return [...stack.slice(0, -1), change(top)];
}
