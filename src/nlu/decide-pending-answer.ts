/**
 * What answers a pending question, decided without touching the turn: a short or constrained answer
 * fills the asked slot; a long free answer needs the model to confirm it is an answer at all (a change
 * of mind is routed instead); a short answer that does not fit is asked again, more specifically.
 */
import type { FlowDefinition } from '../flow/index.js';
import { resolveAmbiguity } from '../policy/index.js';
import type { FlowInstance, PendingQuestion } from '../spec/index.js';

export type PendingAnswer =
  /** The answer fills these slots of the flow that asked. */
  | { kind: 'fill'; slots: Record<string, unknown> }
  /** The answer clarifies the flow's request without filling a slot. */
  | { kind: 'clarified' }
  /** The answer does not fit the slot: this more specific question is asked instead. */
  | { kind: 'invalid'; question: PendingQuestion }
  /** Not an answer to the question (or not without the model's word). */
  | { kind: 'none' };

/** Answers of at most this many words to a pending question are taken as answers without asking the model. */
const shortAnswerWords = 6;
/** Slot types whose values a parser checks, so that any answer that parses is an answer. */
const constrainedTypes = new Set(['number', 'date', 'category', 'range']);

export function decidePendingAnswer(options: {
  pending: PendingQuestion;
  text: string;
  flow: FlowInstance;
  spec: FlowDefinition;
  /** The model routed the message as an answer to the question. */
  confirmedByModel: boolean;
  /** Slot values the model read from the message, by label. */
  labels?: Record<string, unknown>;
}): PendingAnswer {
  const { pending, text, flow, spec, confirmedByModel } = options;
  const resolution = resolveAmbiguity({ pending, text, spec, flow });
  const short = text.trim().split(/\s+/).length <= shortAnswerWords;
  // An elective question is asked by its first slot, but the answer may fill another slot of the group:
  // only the slot actually filled tells whether a parser vouched for the answer.
  if (
    resolution.kind === 'fill' &&
    (short || confirmedByModel || fillsOnlyConstrainedSlots(spec, resolution.slots))
  )
    return { kind: 'fill', slots: resolution.slots };
  const label = pending.slot ? options.labels?.[pending.slot] : undefined;
  if (confirmedByModel && pending.slot && label !== undefined) {
    const filled = spec.fillSlotsByLabel(flow, { [pending.slot]: label });
    if (filled.rejected.length === 0) return { kind: 'fill', slots: filled.flow.slots };
  }
  if (resolution.kind === 'clarified' && (short || confirmedByModel)) return { kind: 'clarified' };
  if (resolution.kind === 'invalid' && short && !confirmedByModel)
    return { kind: 'invalid', question: resolution.question };
  return { kind: 'none' };
}

function fillsOnlyConstrainedSlots(spec: FlowDefinition, values: Record<string, unknown>): boolean {
  return Object.keys(values).every((name) => {
    const slot = spec.slots.find((s) => s.name === name);
    return (
      slot !== undefined &&
      (constrainedTypes.has(slot.type) || (slot.type === 'entity' && slot.entities !== undefined))
    );
  });
}
