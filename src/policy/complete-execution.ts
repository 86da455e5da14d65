/**
 * PEX phase 5 of `executeFlow`: completion of a flow whose skill succeeded. The flow's `afterComplete`
 * hook may change slots and flags and schedule flows; the flow is marked complete with its result, and the
 * result and the completion summaries are written to the scratchpad.
 */
import type { DialogueState, InternalFlowRequest } from '../flow/index.js';
import { transitionDialogue } from '../flow/index.js';
import { writeScratchpad } from '../memory/index.js';
import type { ScratchpadEntry } from '../spec/index.js';
import type { ExecuteFlowOptions } from './execute-flow-options.js';
import type { ProcessedSuccess } from './process-skill-outcome.js';
import type { ReviewedFlow } from './review-and-confirm-slots.js';
import { summarizeCompletion } from './summarize-completion.js';

/** The state and scratchpad after completion, and the flows the hook scheduled. */
export interface CompletedExecution {
  state: DialogueState;
  scratchpad: ScratchpadEntry[];
  schedule: InternalFlowRequest[];
}

/** Completes the flow: the hook's effects, the `complete` transition and the scratchpad writes. */
export function completeExecution(
  options: ExecuteFlowOptions,
  reviewed: ReviewedFlow,
  success: ProcessedSuccess,
): CompletedExecution {
  const { flow, definition } = reviewed;
  const { outcome, processed, after } = success;
  let state = reviewed.state;
  const effects = definition.hooks.afterComplete?.({ flow, data: outcome.data });
  if (effects?.slots) state = replaceSlots(state, flow.id, effects.slots);
  if (effects?.flags) state = transitionDialogue(state, { type: 'set-flags', flags: effects.flags });
  state = transitionDialogue(state, {
    type: 'complete',
    result: processed.frame?.frame ?? processed.scratchpadText ?? processed.text,
  });
  let scratchpad = after.scratchpad;
  const now = options.batch.clock.now();
  const write = (key: string, text: string) => {
    scratchpad = writeScratchpad(
      scratchpad,
      { key, text, source: flow.name, time: now },
      { maxEntries: options.maxScratchpadEntries },
    );
  };
  if (processed.scratchpadText !== undefined) write(`${flow.id}:result`, processed.scratchpadText);
  const summaries = summarizeCompletion({
    spec: definition,
    flow,
    data: outcome.data,
    skillEntries: outcome.scratchpadEntries,
  });
  for (const [index, text] of summaries.entries()) write(`${flow.id}:summary:${index + 1}`, text);
  return { state, scratchpad, schedule: effects?.schedule ?? [] };
}

/** Applies a hook's slot values as given, so that a hook clearing a slot is visible to `verify()`. */
function replaceSlots(state: DialogueState, flowId: string, slots: Record<string, unknown>): DialogueState {
  return {
    ...state,
    stack: state.stack.map((f) => {
      if (f.id !== flowId) return f;
      const next = { ...f.slots, ...slots };
      for (const [k, v] of Object.entries(slots)) if (v === undefined || v === null) delete next[k];
      return { ...f, slots: next };
    }),
  };
}
