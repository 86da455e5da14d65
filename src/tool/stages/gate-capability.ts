import { assessmentOf } from '../internal/assess-call.js';
import type { ToolStage } from '../tool-pipeline.js';
import { errorResult } from '../tool-results.js';

/**
 * The capability gate. Refuses a tool above the batch's `capabilities.maxLevel`; otherwise lets the
 * call on, having decided whether it needs approval, which the next stage asks for:
 * - the tool says `requiresApproval`, or its level is at or above `capabilities.approvalFrom`;
 * - the lethal trifecta, in three forms: the tool has all three tags; or it communicates externally
 *   while the tools offered to this run cover all three tags between them; or it communicates
 *   externally after a result from a tool that receives untrusted input entered the context (taint).
 */
export const gateCapability: ToolStage = (state, next) => {
  if (!state.tool) return next(state);
  const { refusal } = assessmentOf(state);
  if (refusal !== undefined) return Promise.resolve(errorResult(state, 'auth_error', refusal, false));
  return next(state);
};
