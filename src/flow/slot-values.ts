/**
 * Slot checks (seed 001 `isFilled`), as pure functions: one validator per slot type, and the queries
 * slot review asks (what is missing, which elective group is unsatisfied).
 */
import type { FlowInstance, FlowSpec, SlotSpec } from '../spec/index.js';

export type SlotCheck = { ok: true; value: unknown } | { ok: false; problem: string };

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Validates and normalizes one value for a slot's type and constraints. */
export function checkSlotValue(slot: SlotSpec, value: unknown): SlotCheck {
  if (!hasValue(value)) return { ok: false, problem: 'is empty' };
  switch (slot.type) {
    case 'number':
      return checkNumber(slot, value);
    case 'category': {
      const match = slot.options?.find((o) => o.toLowerCase() === String(value).trim().toLowerCase());
      return match
        ? { ok: true, value: match }
        : { ok: false, problem: `must be one of ${slot.options?.join(', ')}` };
    }
    case 'date':
      return checkDate(value);
    case 'range':
      return checkRange(slot, value);
    case 'entity': {
      const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
      if (text === '') return { ok: false, problem: 'is not a name' };
      if (slot.entities) {
        const known = slot.entities.find((e) => e.toLowerCase() === text.toLowerCase());
        return known
          ? { ok: true, value: known }
          : { ok: false, problem: `is not one of the known ${slot.entities.join(', ')}` };
      }
      return checkPattern(slot, text);
    }
    case 'list': {
      const items = Array.isArray(value)
        ? value
        : typeof value === 'string'
          ? value
              .split(/,|\band\b/)
              .map((s) => s.trim())
              .filter((s) => s !== '')
          : [value];
      if (!slot.options) return { ok: true, value: items };
      const checked: string[] = [];
      for (const item of items) {
        const match = slot.options.find((o) => o.toLowerCase() === String(item).trim().toLowerCase());
        if (!match)
          return { ok: false, problem: `has '${String(item)}', not one of ${slot.options.join(', ')}` };
        if (!checked.includes(match)) checked.push(match);
      }
      return { ok: true, value: checked };
    }
    case 'dictionary':
      return typeof value === 'object' && !Array.isArray(value)
        ? { ok: true, value }
        : { ok: false, problem: 'is not a dictionary' };
    case 'free-text':
      return typeof value === 'string' ? { ok: true, value } : { ok: false, problem: 'is not text' };
    default: {
      if (typeof value !== 'string' && typeof value !== 'number')
        return { ok: false, problem: 'is not text' };
      return checkPattern(slot, String(value).trim());
    }
  }
}

function checkNumber(slot: SlotSpec, value: unknown): SlotCheck {
  const n = typeof value === 'number' ? value : Number(String(value).replace(/,/g, '').trim());
  if (!Number.isFinite(n)) return { ok: false, problem: 'is not a number' };
  if (slot.min !== undefined && n < slot.min) return { ok: false, problem: `is below ${slot.min}` };
  if (slot.max !== undefined && n > slot.max) return { ok: false, problem: `is above ${slot.max}` };
  return { ok: true, value: n };
}

function checkDate(value: unknown): SlotCheck {
  const text = String(value).trim();
  const iso = isoDate.exec(text);
  if (iso) {
    const [, y, m, d] = iso.map(Number) as [number, number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    if (date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d)
      return { ok: true, value: text };
    return { ok: false, problem: 'is not a calendar date' };
  }
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) return { ok: false, problem: 'is not a date (YYYY-MM-DD)' };
  return { ok: true, value: new Date(parsed).toISOString().slice(0, 10) };
}

function checkRange(slot: SlotSpec, value: unknown): SlotCheck {
  let pair: unknown[] | undefined;
  if (Array.isArray(value)) pair = value;
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    pair = [record.from, record.to];
  } else if (typeof value === 'string') {
    const parts = value.split(/\s*(?:\.\.|–|\bto\b|-(?=\s*\d{1,}(?:\D|$)))\s*/);
    if (parts.length === 2) pair = parts;
  }
  if (pair?.length !== 2 || !hasValue(pair[0]) || !hasValue(pair[1]))
    return { ok: false, problem: 'is not a [from, to] range' };
  const numbers = pair.map((p) => (typeof p === 'number' ? p : Number(String(p).trim())));
  if (numbers.every(Number.isFinite)) {
    const [from, to] = numbers as [number, number];
    if (from > to) return { ok: false, problem: 'starts after it ends' };
    const bound = { ...slot, type: 'number' as const };
    for (const n of numbers) {
      const check = checkNumber(bound, n);
      if (!check.ok) return check;
    }
    return { ok: true, value: [from, to] };
  }
  const dates = pair.map(checkDate);
  if (dates.every((d) => d.ok)) {
    const [from, to] = dates.map((d) => (d as { value: string }).value) as [string, string];
    return from <= to ? { ok: true, value: [from, to] } : { ok: false, problem: 'starts after it ends' };
  }
  return { ok: false, problem: 'is not a range of numbers or dates' };
}

function checkPattern(slot: SlotSpec, text: string): SlotCheck {
  if (slot.pattern && !new RegExp(slot.pattern).test(text))
    return { ok: false, problem: `does not have the expected form (${slot.pattern})` };
  return { ok: true, value: text };
}

/** Required slots without a valid value, in declaration order. */
export function missingRequiredSlots(spec: FlowSpec, flow: FlowInstance): SlotSpec[] {
  return spec.slots.filter((s) => s.priority === 'required' && !isValid(s, flow.slots[s.name]));
}

/** Elective groups none of whose slots has a valid value. */
export function unsatisfiedElectiveGroups(spec: FlowSpec, flow: FlowInstance): SlotSpec[][] {
  const groups = new Map<string, SlotSpec[]>();
  for (const slot of spec.slots.filter((s) => s.priority === 'elective')) {
    groups.set(slot.group ?? '', [...(groups.get(slot.group ?? '') ?? []), slot]);
  }
  return [...groups.values()].filter((group) => !group.some((s) => isValid(s, flow.slots[s.name])));
}

/** All required slots and at least one slot of each elective group hold valid values. */
export function isFilled(spec: FlowSpec, flow: FlowInstance): boolean {
  return missingRequiredSlots(spec, flow).length === 0 && unsatisfiedElectiveGroups(spec, flow).length === 0;
}

/** Slots that hold a value their type rejects (e.g. a label the router got wrong). */
export function invalidSlots(spec: FlowSpec, flow: FlowInstance): SlotSpec[] {
  return spec.slots.filter((s) => hasValue(flow.slots[s.name]) && !checkSlotValue(s, flow.slots[s.name]).ok);
}

/** Whether a value counts as given: not undefined, null, empty text or an empty list. */
export function hasValue(value: unknown): boolean {
  return (
    value !== undefined &&
    value !== null &&
    !(typeof value === 'string' && value.trim() === '') &&
    !(Array.isArray(value) && value.length === 0)
  );
}

function isValid(slot: SlotSpec, value: unknown): boolean {
  return hasValue(value) && checkSlotValue(slot, value).ok;
}
