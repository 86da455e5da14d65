/**
 * The per-turn history of diffs: what changed between two dialogue states, as a list of small
 * changes (push, pop, status, slots, flags, background) that a reader can replay or display.
 */
import type { DialogueChange, DialogueFlags, FlowInstance } from '../spec/index.js';
import type { DialogueState } from './dialogue-state.js';

export function diffDialogue(before: DialogueState, after: DialogueState): DialogueChange[] {
  // A stack holds a few flows: a lookup is a scan of the other stack.
  const changes: DialogueChange[] = [];
  for (const flow of before.stack)
    if (findFlow(after.stack, flow.id) === undefined)
      changes.push({ op: 'pop', flowId: flow.id, name: flow.name, status: flow.status });
  for (const flow of after.stack) {
    const prior = findFlow(before.stack, flow.id);
    if (prior === undefined) {
      changes.push(
        flow.planId
          ? { op: 'push', flowId: flow.id, name: flow.name, planId: flow.planId }
          : { op: 'push', flowId: flow.id, name: flow.name },
      );
      const set = slotChanges(undefined, flow);
      if (set !== undefined) changes.push({ op: 'slots', flowId: flow.id, name: flow.name, ...set });
      continue;
    }
    if (prior.status !== flow.status)
      changes.push({ op: 'status', flowId: flow.id, name: flow.name, from: prior.status, to: flow.status });
    const set = slotChanges(prior, flow);
    if (set !== undefined) changes.push({ op: 'slots', flowId: flow.id, name: flow.name, ...set });
  }
  let flags: Partial<DialogueFlags> | undefined;
  for (const key in after.flags) {
    const name = key as keyof DialogueFlags;
    if (before.flags[name] !== after.flags[name]) {
      flags ??= {};
      flags[name] = after.flags[name];
    }
  }
  if (flags !== undefined) changes.push({ op: 'flags', set: flags });
  for (const flow of after.background) {
    const prior = findFlow(before.background, flow.id);
    if (prior === undefined)
      changes.push({ op: 'schedule', flowId: flow.id, name: flow.name, dependsOn: flow.dependsOn ?? [] });
    else if (prior.status !== flow.status)
      changes.push({ op: 'background', flowId: flow.id, name: flow.name, status: flow.status });
  }
  return changes;
}

function findFlow<T extends { id: string }>(flows: readonly T[], id: string): T | undefined {
  for (const flow of flows) if (flow.id === id) return flow;
  return undefined;
}

/**
 * The slots set (new or changed, compared as JSON) and cleared between two versions of a flow; `undefined`
 * when none changed. A flow just pushed (`prior` undefined) compares against no slots.
 */
function slotChanges(
  prior: FlowInstance | undefined,
  flow: FlowInstance,
): { set: Record<string, unknown>; cleared: string[] } | undefined {
  let set: Record<string, unknown> | undefined;
  let cleared: string[] | undefined;
  for (const name in flow.slots) {
    const value = flow.slots[name];
    if (value === undefined) continue;
    const old = prior?.slots[name];
    if (old === value || (old !== undefined && JSON.stringify(old) === JSON.stringify(value))) continue;
    set ??= {};
    set[name] = value;
  }
  if (prior !== undefined)
    for (const name in prior.slots) {
      if (prior.slots[name] === undefined || flow.slots[name] !== undefined) continue;
      cleared ??= [];
      cleared.push(name);
    }
  if (set === undefined && cleared === undefined) return undefined;
  return { set: set ?? {}, cleared: cleared ?? [] };
}
