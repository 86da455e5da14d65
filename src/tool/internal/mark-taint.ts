/**
 * Content from a tool that receives untrusted input is now in the context: later batches of the run see
 * it (DESIGN.md invariant 11). A call that is only waiting for a person added nothing yet.
 */
import type { ToolCallResult } from '../../spec/index.js';
import { addTaintSource, type ToolBatchContext } from '../tool-batch-context.js';
import type { ToolCallState } from '../tool-call-state.js';

export function markTaint(
  states: readonly ToolCallState[],
  results: readonly ToolCallResult[],
  context: ToolBatchContext,
): void {
  const taint = context.taint;
  if (!taint) return;
  states.forEach((state, index) => {
    const tool = state.tool;
    if (!tool?.receivesUntrustedInput || !state.toolContent || results[index]?.status === 'suspended') return;
    addTaintSource(taint, { tool: tool.name, callId: state.request.callId, turnId: context.turnId });
  });
}
