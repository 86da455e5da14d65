/**
 * The flow stack as pure transitions (seed 001, DESIGN.md invariants 1–3). The top of the stack is the
 * last element. Every function returns a new stack and leaves its input alone.
 */
import { StackDepthError } from '../errors/index.js';
import { defaultBounds, type FlowInstance } from '../spec/index.js';
import { copyWith } from '../util/index.js';

/** Default bound on stack depth: the one table's (`defaultBounds`, DESIGN.md §5). */
export const defaultMaxStackDepth = defaultBounds.limits.maxStackDepth;

export function activeFlow(stack: readonly FlowInstance[]): FlowInstance | undefined {
  const top = stack.at(-1);
  return top?.status === 'active' ? top : undefined;
}

/** Whether a flow is still to run (Pending or Active). */
export function isOpen(flow: FlowInstance): boolean {
  return flow.status === 'active' || flow.status === 'pending';
}

/**
 * Puts a flow on top and makes it Active; the previous top becomes Pending. A flow of the same name
 * (and plan) that is already Pending or Active is not pushed twice: it moves to the top with the new
 * slot values merged over its own (de-duplication). A push past `maxDepth` is a `StackDepthError`.
 */
export function pushFlow(
  stack: readonly FlowInstance[],
  flow: FlowInstance,
  options: { maxDepth?: number } = {},
): FlowInstance[] {
  const maxDepth = options.maxDepth ?? defaultMaxStackDepth;
  const existing = findOpenDuplicate(stack, flow);
  if (existing >= 0) {
    const found = stack[existing] as FlowInstance;
    const merged: FlowInstance = { ...found, slots: { ...found.slots, ...flow.slots }, status: 'active' };
    const rest = stack.filter((_, i) => i !== existing).map(demote);
    return [...rest, merged];
  }
  if (stack.length >= maxDepth) throw new StackDepthError({ maxDepth, flowName: flow.name });
  return [...stack.map(demote), { ...flow, status: 'active' }];
}

/** The index of an open flow with the same name and plan as `flow`, or -1. */
export function findOpenDuplicate(stack: readonly FlowInstance[], flow: FlowInstance): number {
  return stack.findIndex(
    (f) => f.id !== flow.id && f.name === flow.name && isOpen(f) && f.planId === flow.planId,
  );
}

/** Marks the active flow Completed with its result. */
export function completeActiveFlow(stack: readonly FlowInstance[], result: unknown): FlowInstance[] {
  return updateActive(stack, (f) => copyWith(f, { status: 'completed' as const, result }));
}

/**
 * Marks a flow Invalid (wrongly predicted, or failed hard), by default the active one. Every sub-flow
 * of a plan whose Plan flow is invalidated is invalidated with it (DESIGN.md invariant 3).
 */
export function invalidateFlow(stack: readonly FlowInstance[], flowId?: string): FlowInstance[] {
  const id = flowId ?? activeFlow(stack)?.id;
  if (id === undefined) return [...stack];
  return stack.map((f) =>
    (f.id === id || (f.planId === id && f.id !== id)) && f.status !== 'completed'
      ? { ...f, status: 'invalid' }
      : f,
  );
}

/** Marks the active flow Invalid. */
export function invalidateActiveFlow(stack: readonly FlowInstance[]): FlowInstance[] {
  return invalidateFlow(stack);
}

/** Replaces the active flow's slots with `slots` merged over them. */
export function updateActiveSlots(
  stack: readonly FlowInstance[],
  slots: Record<string, unknown>,
): FlowInstance[] {
  return updateActive(stack, (f) => ({ ...f, slots: { ...f.slots, ...slots } }));
}

/** Changes one flow (by id) wherever it sits. */
export function updateFlow(
  stack: readonly FlowInstance[],
  flowId: string,
  change: (flow: FlowInstance) => FlowInstance,
): FlowInstance[] {
  return stack.map((f) => (f.id === flowId ? change(f) : f));
}

/**
 * Pops every Completed or Invalid flow (wherever it sits), then activates the new top. Returns the
 * new stack and the popped flows, in pop order.
 */
export function popFinishedFlows(stack: readonly FlowInstance[]): {
  stack: FlowInstance[];
  popped: FlowInstance[];
} {
  const popped = stack.filter((f) => !isOpen(f)).reverse();
  const kept = stack.filter(isOpen).map(demote);
  const top = kept.at(-1);
  if (top) kept[kept.length - 1] = { ...top, status: 'active' };
  return { stack: kept, popped };
}

/**
 * Seed 001 fallback: the new flow takes the slot values whose names it declares (`slotNames`) from
 * the active flow, unless it already has a value; unmatched slots are discarded. The old flow's
 * metadata and plan id carry over; the old flow is marked Invalid and popped; the new one is pushed.
 */
export function fallbackFlow(
  stack: readonly FlowInstance[],
  options: { flow: FlowInstance; slotNames: readonly string[]; maxDepth?: number },
): FlowInstance[] {
  const old = activeFlow(stack);
  const mapped: Record<string, unknown> = {};
  if (old)
    for (const name of options.slotNames) if (old.slots[name] !== undefined) mapped[name] = old.slots[name];
  const next: FlowInstance = { ...options.flow, slots: { ...mapped, ...options.flow.slots } };
  if (old?.metadata) next.metadata = { ...old.metadata, ...options.flow.metadata };
  if (old?.planId !== undefined && next.planId === undefined) next.planId = old.planId;
  const without = old ? popFinishedFlows(invalidateFlow(stack, old.id)).stack : [...stack];
  return pushFlow(without, next, options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth });
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
