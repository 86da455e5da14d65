/**
 * Slot checks and filling (seed 001 flow methods `fillSlotsByLabel`, `isFilled`), as pure functions.
 */
import type { FlowInstance, FlowSpec, SlotSpec } from '../spec/index.js';

export type SlotCheck = { ok: true; value: unknown } | { ok: false; problem: string };

/** Validates and normalizes one value for a slot's type. */
export function checkSlotValue(slot: SlotSpec, value: unknown): SlotCheck {
  if (value === undefined || value === null || value === '') return { ok: false, problem: 'is empty' };
  switch (slot.type) {
    case 'number': {
      const n = typeof value === 'number' ? value : Number(String(value).replace(/,/g, ''));
      return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, problem: 'is not a number' };
    }
    case 'category': {
      const match = slot.options?.find((o) => o.toLowerCase() === String(value).toLowerCase());
      return match
        ? { ok: true, value: match }
        : { ok: false, problem: `must be one of ${slot.options?.join(', ')}` };
    }
    case 'date': {
      const text = String(value);
      return Number.isNaN(Date.parse(text))
        ? { ok: false, problem: 'is not a date' }
        : { ok: true, value: text };
    }
    case 'list':
      return Array.isArray(value) ? { ok: true, value } : { ok: true, value: [value] };
    case 'dictionary':
      return typeof value === 'object' && !Array.isArray(value)
        ? { ok: true, value }
        : { ok: false, problem: 'is not a dictionary' };
    case 'range':
      return Array.isArray(value) && value.length === 2
        ? { ok: true, value }
        : { ok: false, problem: 'is not a [from, to] range' };
    default:
      return typeof value === 'string' || typeof value === 'number'
        ? { ok: true, value: String(value).trim() }
        : { ok: false, problem: 'is not text' };
  }
}

/** Fills slots from labels (the router's prediction); labels for unknown slots or bad values are dropped. */
export function fillSlotsByLabel(
  spec: FlowSpec,
  flow: FlowInstance,
  labels: Record<string, unknown>,
): FlowInstance {
  const slots = { ...flow.slots };
  for (const slot of spec.slots) {
    if (!(slot.name in labels)) continue;
    const check = checkSlotValue(slot, labels[slot.name]);
    if (check.ok) slots[slot.name] = check.value;
  }
  return { ...flow, slots };
}

/** Required slots without a value, in declaration order. */
export function missingRequiredSlots(spec: FlowSpec, flow: FlowInstance): SlotSpec[] {
  return spec.slots.filter((s) => s.priority === 'required' && !hasValue(flow.slots[s.name]));
}

/** Elective groups none of whose slots has a value. */
export function unsatisfiedElectiveGroups(spec: FlowSpec, flow: FlowInstance): SlotSpec[][] {
  const groups = new Map<string, SlotSpec[]>();
  for (const slot of spec.slots.filter((s) => s.priority === 'elective')) {
    groups.set(slot.group ?? '', [...(groups.get(slot.group ?? '') ?? []), slot]);
  }
  return [...groups.values()].filter((group) => !group.some((s) => hasValue(flow.slots[s.name])));
}

/** All required slots and at least one slot of each elective group are filled. */
export function isFilled(spec: FlowSpec, flow: FlowInstance): boolean {
  return missingRequiredSlots(spec, flow).length === 0 && unsatisfiedElectiveGroups(spec, flow).length === 0;
}

function hasValue(value: unknown): boolean {
  return (
    value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)
  );
}
