/**
 * The per-turn history of diffs: what changed between two dialogue states, as a list of small
 * changes (push, pop, status, slots, flags, background) that a reader can replay or display.
 */
import type { DialogueChange, DialogueFlags, FlowInstance } from '../spec/index.js';
import type { DialogueState } from './dialogue-state.js';

export function diffDialogue(before: DialogueState, after: DialogueState): DialogueChange[] {
  const changes: DialogueChange[] = [];
  const old = new Map(before.stack.map((f) => [f.id, f]));
  const now = new Map(after.stack.map((f) => [f.id, f]));
  for (const flow of before.stack)
    if (!now.has(flow.id)) changes.push({ op: 'pop', flowId: flow.id, name: flow.name, status: flow.status });
  for (const flow of after.stack) {
    const prior = old.get(flow.id);
    if (!prior) {
      changes.push({
        op: 'push',
        flowId: flow.id,
        name: flow.name,
        ...(flow.planId ? { planId: flow.planId } : {}),
      });
      const set = slotChanges({ ...flow, slots: {} }, flow);
      if (Object.keys(set.set).length > 0)
        changes.push({ op: 'slots', flowId: flow.id, name: flow.name, ...set });
      continue;
    }
    if (prior.status !== flow.status)
      changes.push({ op: 'status', flowId: flow.id, name: flow.name, from: prior.status, to: flow.status });
    const set = slotChanges(prior, flow);
    if (Object.keys(set.set).length > 0 || set.cleared.length > 0)
      changes.push({ op: 'slots', flowId: flow.id, name: flow.name, ...set });
  }
  const flags: Partial<DialogueFlags> = {};
  for (const key of Object.keys(after.flags) as (keyof DialogueFlags)[])
    if (before.flags[key] !== after.flags[key]) flags[key] = after.flags[key];
  if (Object.keys(flags).length > 0) changes.push({ op: 'flags', set: flags });
  const oldBackground = new Map(before.background.map((f) => [f.id, f]));
  for (const flow of after.background) {
    const prior = oldBackground.get(flow.id);
    if (!prior)
      changes.push({ op: 'schedule', flowId: flow.id, name: flow.name, dependsOn: flow.dependsOn ?? [] });
    else if (prior.status !== flow.status)
      changes.push({ op: 'background', flowId: flow.id, name: flow.name, status: flow.status });
  }
  return changes;
}

function slotChanges(
  prior: FlowInstance,
  flow: FlowInstance,
): { set: Record<string, unknown>; cleared: string[] } {
  const set: Record<string, unknown> = {};
  const cleared: string[] = [];
  for (const [name, value] of Object.entries(flow.slots))
    if (value !== undefined && JSON.stringify(prior.slots[name]) !== JSON.stringify(value)) set[name] = value;
  for (const [name, value] of Object.entries(prior.slots))
    if (value !== undefined && flow.slots[name] === undefined) cleared.push(name);
  return { set, cleared };
}
