import { messageOfThrown } from '../../errors/index.js';
import type { ApprovalState, ToolCallResult } from '../../spec/index.js';
import { assessmentOf } from '../internal/assess-call.js';
import { argsHashOf, idempotencyKeyOf, type ToolCallState } from '../tool-call-state.js';
import { approvalRequest, errorResult } from '../tool-results.js';
import type { StageAnswer } from '../tool-stage.js';

/**
 * Holds a call that needs approval (see the capability gate) until a human said yes to exactly this
 * call: a resumed call approved by a person for exactly these arguments goes on; otherwise the batch's
 * `approvals` lookup is asked with the call's idempotency key, argument hash and the grounds for approval.
 * `approved` lets it run; `denied` answers the model with a final `auth_error`; no decision returns a
 * suspension (status `suspended`, kind `approval`), which the durability layer saves and resumes.
 * A lookup that fails refuses the call: approval fails closed.
 */
export function requireApproval(state: ToolCallState): StageAnswer<ToolCallResult | undefined> {
  const { approvalReasons } = assessmentOf(state);
  return approvalReasons.length === 0 ? undefined : askForApproval(state);
}

async function askForApproval(state: ToolCallState): Promise<ToolCallResult | undefined> {
  const { approvalReasons, grounds } = assessmentOf(state);
  const idempotencyKey = idempotencyKeyOf(state);
  const argsHash = argsHashOf(state);
  // The same call, already approved and run or refused in this run, is answered with what it got.
  const earlier = state.batch.answered?.forCall(state.request.toolName, argsHash);
  if (earlier) return { ...earlier, callId: state.request.callId };
  const reason = approvalReasons.join('; ');
  let verdict: ApprovalState = 'none';
  if (state.approvedArgsHash !== undefined && state.approvedArgsHash === argsHash) verdict = 'approved';
  else if (state.batch.approvals) {
    try {
      verdict = await state.batch.approvals.isApproved({
        idempotencyKey,
        argsHash,
        callId: state.request.callId,
        toolName: state.tool?.name ?? state.request.toolName,
        input: state.input,
        grounds: [...grounds],
        reason,
      });
    } catch (error) {
      const detail = state.batch.redact.text(messageOfThrown(error));
      return errorResult(
        state,
        'server_error',
        `Approvals cannot be read (${detail}), so the call was not run.`,
        false,
      );
    }
  }
  if (verdict === 'approved') return undefined;
  if (verdict === 'denied') {
    const refused = errorResult(state, 'auth_error', 'A human denied this call. Do not try it again.', false);
    if (refused.status === 'error') {
      refused.error.refusedBy = 'person';
      refused.error.refusal = {};
    }
    return refused;
  }
  return approvalRequest(state, { reason, idempotencyKey, argsHash });
}
