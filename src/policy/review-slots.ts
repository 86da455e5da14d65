/**
 * PEX step 1, slot review (seed 000): when the flow's slots are not all filled, the model tries to
 * fill them from the recent conversation and memory (phase `fill-slots`); whatever is still missing
 * becomes an ambiguity — a question for the user — and the skill does not run.
 */

import { ModelError } from '../errors/index.js';
import {
  type FillSlotValuesOptions,
  type FlowDefinition,
  missingRequiredSlots,
  unsatisfiedElectiveGroups,
} from '../flow/index.js';
import type { FlowInstance, PendingQuestion } from '../spec/index.js';
import { declareAmbiguity } from './ambiguity-handler.js';

export interface SlotReview {
  flow: FlowInstance;
  /** Slots the model filled from context and memory. */
  filled: string[];
  /** The question to ask when something is still missing. */
  question?: PendingQuestion;
  /** Whether the model was asked to fill slots. */
  consultedModel: boolean;
}

/**
 * Reviews the flow's slots. The model is consulted only when something is missing and there is
 * context beyond the message the router already read (earlier turns, scratchpad or preferences); a
 * model that fails here only means the user is asked.
 */
export async function reviewSlots(options: {
  definition: FlowDefinition;
  flow: FlowInstance;
  fill?: FillSlotValuesOptions;
  /** Earlier turns or memory exist to fill from. */
  hasContext: boolean;
}): Promise<SlotReview> {
  const { definition } = options;
  let flow = options.flow;
  let filled: string[] = [];
  let consultedModel = false;
  if (definition.needsToThink(flow) && options.fill && options.hasContext) {
    consultedModel = true;
    try {
      const result = await definition.fillSlotValues(flow, options.fill);
      flow = result.flow;
      filled = result.filled;
    } catch (error) {
      if (!ModelError.isInstance(error)) throw error;
    }
  }
  const missing = missingRequiredSlots(definition, flow)[0];
  if (missing) {
    const value = flow.slots[missing.name];
    const question =
      value === undefined
        ? declareAmbiguity({ level: 'specific', flow, slot: missing })
        : declareAmbiguity({ level: 'specific', flow, slot: missing, problem: 'is not valid' });
    return { flow, filled, question, consultedModel };
  }
  const group = unsatisfiedElectiveGroups(definition, flow)[0];
  if (group)
    return { flow, filled, question: declareAmbiguity({ level: 'partial', flow, group }), consultedModel };
  return { flow, filled, consultedModel };
}
