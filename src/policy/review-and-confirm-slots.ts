/**
 * PEX phase 2 of `executeFlow`: slot review of the checked flow, the slot checks that wait for it, and the
 * confirmation a tool that needs approval asks for. It ends the execution with a question or `blocked`,
 * or hands the flow with its filled slots to the skill run.
 */
import { type DialogueState, transitionDialogue } from '../flow/index.js';
import type { FlowInstance } from '../spec/index.js';
import { stableHash } from '../util/index.js';
import { declareAmbiguity } from './ambiguity-handler.js';
import { blockExecution, type CheckedFlow } from './check-active-flow.js';
import { checkSlots } from './check-flow.js';
import type { ExecuteFlowOptions } from './execute-flow-options.js';
import type { FlowExecution } from './flow-execution.js';
import { reviewSlots } from './review-slots.js';

/** A flow whose slots are reviewed and, where a tool needs it, confirmed: ready for its skill. */
export interface ReviewedFlow extends CheckedFlow {
  state: DialogueState;
}

/** Reviews and checks the slots and asks for confirmation when needed; else the flow is ready. */
export async function reviewAndConfirmSlots(
  options: ExecuteFlowOptions,
  checked: CheckedFlow,
): Promise<{ stop: FlowExecution } | { ready: ReviewedFlow }> {
  const { definition, check } = checked;
  const base = { ...checked.base };
  let state = options.state;
  const review = await reviewSlots({
    definition,
    flow: checked.flow,
    hasContext:
      options.history.length > 1 ||
      options.scratchpad.length > 0 ||
      Object.keys(options.preferences).length > 0,
    // A SCRIPT flow calls no model, so what its slots lack is asked rather than filled from context.
    ...(definition.run
      ? {}
      : {
          fill: {
            model: options.model,
            context: options.context,
            memory: { scratchpad: options.scratchpad, preferences: options.preferences },
            persona: options.persona,
            ...(options.stream ? { stream: true } : {}),
            ...(options.signal ? { signal: options.signal } : {}),
          },
        }),
  });
  if (review.filled.length > 0) {
    const slots = Object.fromEntries(review.filled.map((name) => [name, review.flow.slots[name]]));
    state = transitionDialogue(state, { type: 'fill-slots', flowId: checked.flow.id, slots });
  }
  base.state = state;
  base.filled = review.filled;
  if (review.question) return { stop: { ...base, kind: 'ask', question: review.question } };
  const flow = state.stack.at(-1) as FlowInstance;
  const slotProblems = checkSlots(definition, flow);
  if (slotProblems.length > 0) return { stop: blockExecution(base, slotProblems) };
  const needsApproval = [...check.tools.values()].some((t) => t.requiresApproval);
  if (needsApproval && flow.confirmed !== stableHash(flow.slots))
    return {
      stop: {
        ...base,
        kind: 'ask',
        question: declareAmbiguity({ level: 'confirmation', flow, spec: definition }),
      },
    };
  return { ready: { flow, definition, check, base, state } };
}
