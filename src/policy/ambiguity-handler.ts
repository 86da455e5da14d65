/**
 * The ambiguity handler (seed 000/001): declare an ambiguity at one of four levels, ask it as a
 * question, and resolve the user's answer on the next turn.
 *
 * - `general`: the agent does not know what the user wants (a clarification; the answer is read as
 *   context when the flow runs again).
 * - `partial`: one of a group of elective slots is needed ("the A or the B").
 * - `specific`: one slot is missing or its value was rejected.
 * - `confirmation`: the flow's tools need approval; the user says yes or no.
 */
import { checkSlotValue } from '../flow/index.js';
import { readYesNo } from '../hitl/index.js';
import type { FlowInstance, FlowSpec, PendingQuestion, SlotSpec } from '../spec/index.js';

export type AmbiguityDeclaration =
  | { level: 'general'; flow: FlowInstance; reason: string }
  | { level: 'partial'; flow: FlowInstance; group: readonly SlotSpec[] }
  | { level: 'specific'; flow: FlowInstance; slot: SlotSpec; problem?: string }
  | { level: 'confirmation'; flow: FlowInstance; spec: FlowSpec };

/** Turns a declared ambiguity into the question the user is asked. */
export function declareAmbiguity(declaration: AmbiguityDeclaration): PendingQuestion {
  const { flow } = declaration;
  switch (declaration.level) {
    case 'general':
      return { kind: 'clarification', flowId: flow.id, question: declaration.reason, level: 'general' };
    case 'partial': {
      const names = declaration.group.map((s) => `the ${s.description.toLowerCase()}`).join(' or ');
      const first = declaration.group[0] as SlotSpec;
      return {
        kind: 'slot',
        flowId: flow.id,
        slot: first.name,
        question: `Please tell me ${names}.`,
        level: 'partial',
      };
    }
    case 'specific': {
      const { slot } = declaration;
      const options = slot.options ?? slot.entities;
      const base = slot.question ?? `Which ${slot.description.toLowerCase()} should I use?`;
      const prefix = declaration.problem
        ? `That ${slot.description.toLowerCase()} ${declaration.problem}. `
        : '';
      const question: PendingQuestion = {
        kind: 'slot',
        flowId: flow.id,
        slot: slot.name,
        question: `${prefix}${base}${options && !base.includes(options[0] as string) ? ` (${options.join(', ')})` : ''}`,
        level: 'specific',
      };
      if (options) question.options = [...options];
      return question;
    }
    case 'confirmation': {
      const values = declaration.spec.slots
        .filter((s) => flow.slots[s.name] !== undefined)
        // Each value under its slot's name in words ("flight id: TP1351"), as a person would write it.
        .map((s) => `${s.name.replace(/_/g, ' ')}: ${format(flow.slots[s.name])}`);
      const detail = values.length > 0 ? ` (${values.join(', ')})` : '';
      return {
        kind: 'confirmation',
        flowId: flow.id,
        question: `This will ${lowerFirst(declaration.spec.description.replace(/\.$/, ''))}${detail}. Shall I go ahead? (yes/no)`,
        level: 'confirmation',
      };
    }
  }
}

export type AmbiguityResolution =
  | { kind: 'fill'; slots: Record<string, unknown> }
  | { kind: 'confirmed' }
  | { kind: 'declined'; reason?: string }
  | { kind: 'clarified'; text: string }
  | { kind: 'invalid'; question: PendingQuestion }
  | { kind: 'unanswered' };

/**
 * Reads the user's answer to a pending question. A slot answer is checked against the slot's type
 * (for a `partial` question, against each slot of the group); a confirmation needs a clear yes or no.
 */
export function resolveAmbiguity(options: {
  pending: PendingQuestion;
  text: string;
  spec: FlowSpec | undefined;
  flow: FlowInstance | undefined;
}): AmbiguityResolution {
  const { pending, text, spec, flow } = options;
  if (pending.kind === 'clarification') return { kind: 'clarified', text };
  if (pending.kind === 'confirmation') {
    const read = readConfirmation(text);
    if (read?.answer === 'yes') return { kind: 'confirmed' };
    if (read?.answer === 'no')
      return read.reason ? { kind: 'declined', reason: read.reason } : { kind: 'declined' };
    return { kind: 'unanswered' };
  }
  const slot = spec?.slots.find((s) => s.name === pending.slot);
  if (!spec || !slot || !flow) return { kind: 'unanswered' };
  const candidates =
    pending.level === 'partial' && slot.group !== undefined
      ? spec.slots.filter((s) => s.priority === 'elective' && s.group === slot.group)
      : [slot];
  const ordered = [...candidates].sort((a, b) => constrained(b) - constrained(a));
  for (const candidate of ordered) {
    const check = checkSlotValue(candidate, text);
    if (check.ok) return { kind: 'fill', slots: { [candidate.name]: check.value } };
    // "By month" answers "by region, product or month?": the one option the answer names is the value.
    const named = namedOption(candidate, text);
    const again = named === undefined ? undefined : checkSlotValue(candidate, named);
    if (again?.ok) return { kind: 'fill', slots: { [candidate.name]: again.value } };
  }
  const check = checkSlotValue(slot, text);
  return {
    kind: 'invalid',
    question: declareAmbiguity({
      level: 'specific',
      flow,
      slot,
      problem: check.ok ? 'is not valid' : check.problem,
    }),
  };
}

/** A clear yes or no, or `undefined` when the text is neither. */
export function parseYesNo(text: string): 'yes' | 'no' | undefined {
  return readConfirmation(text)?.answer;
}

/**
 * The answer to a confirmation: a clear yes, or a no with the reason the person gave ("no, too
 * expensive"). A question, a "but" or anything else is no answer (`readYesNo`), so it confirms nothing.
 */
export function readConfirmation(
  text: string,
): { answer: 'yes' } | { answer: 'no'; reason?: string } | undefined {
  const reading = readYesNo(text);
  if (reading === undefined || reading.answer === 'unclear' || reading.target !== undefined) return undefined;
  if (reading.answer === 'yes') return { answer: 'yes' };
  return reading.reason ? { answer: 'no', reason: reading.reason } : { answer: 'no' };
}

/**
 * The one option of the slot that a short answer names as a word or phrase ("by month", "month please");
 * undefined for none or several, and for a longer message, which says something else and is routed.
 */
function namedOption(slot: SlotSpec, text: string): string | undefined {
  if (text.trim().split(/\s+/).length > maxOptionAnswerWords) return undefined;
  const options = slot.options ?? slot.entities ?? [];
  const named = options.filter((option) => {
    const escaped = option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
  });
  return named.length === 1 ? named[0] : undefined;
}

/** "by the month, please": an answer that names an option is a few words at most. */
const maxOptionAnswerWords = 4;

function constrained(slot: SlotSpec): number {
  return ['number', 'date', 'category', 'range', 'entity'].includes(slot.type) ? 1 : 0;
}

function format(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
