import type { ToolCallResult } from '../../spec/index.js';
import { assessmentOf } from '../internal/assess-call.js';
import type { ToolCallState } from '../tool-call-state.js';
import { errorResult } from '../tool-results.js';

/**
 * The capability gate. Refuses a tool above the batch's `capabilities.maxLevel`; otherwise lets the
 * call on, having decided whether it needs approval, which the next stage asks for:
 * - the tool says `requiresApproval`, or its level is at or above `capabilities.approvalFrom`;
 * - the lethal trifecta, in three forms: the tool has all three tags; or it communicates externally
 *   while the tools offered to this run cover all three tags between them; or it communicates
 *   externally after a result from a tool that receives untrusted input entered the context (taint).
 */
export function gateCapability(state: ToolCallState): ToolCallResult | undefined {
  if (!state.tool) return undefined;
  const { refusal } = assessmentOf(state);
  return refusal === undefined ? undefined : errorResult(state, 'auth_error', refusal, false);
}
