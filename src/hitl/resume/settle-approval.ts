/**
 * Settles an approval question: an approval runs the held call exactly once, bound to its idempotency key
 * and the hash of the arguments approved (edited arguments are approved as edited); a refusal or an
 * expired question is a final `auth_error`, and the call never runs.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { ApprovalDecision, SuspensionRecord } from '../../spec/index.js';
import type { ContinueSuspendedRunOptions } from './continue-suspended-run-options.js';
import { runHeldCall } from './internal/held-call.js';
import { observeAnswer } from './internal/observe-answer.js';
import { refused, type Settlement } from './internal/settlement.js';
import { argumentsOf } from './suspended-transcript.js';

/** The settlement of one approval question. */
export async function settleApproval(
  options: ContinueSuspendedRunOptions,
  question: SuspensionRecord,
  messages: readonly LanguageModelV3Message[],
): Promise<Settlement> {
  const callId = question.callId as string;
  const toolName = question.toolName as string;
  const decision: ApprovalDecision =
    question.status === 'answered'
      ? (question.answer as ApprovalDecision)
      : { decision: 'reject', reason: 'the approval request expired' };
  observeAnswer(
    options.turn,
    question,
    question.status === 'expired' ? 'expired' : decision.decision,
    options.parentId,
  );
  if (decision.decision === 'reject') {
    const reason = decision.reason ? options.batch.redact.text(decision.reason) : undefined;
    const why = reason ? `: ${reason}` : '';
    const result = refused(
      question,
      `The user refused this call${why}. Do not try it again.`,
      reason ? { reason } : {},
    );
    return {
      result,
      note: `The user REJECTED the call to ${toolName}${why}. Do not retry it; find another way or finish.`,
      remember: {
        toolName,
        ...(question.argsHash ? { argsHash: question.argsHash } : {}),
        result: JSON.stringify(result),
      },
    };
  }
  const input = decision.decision === 'edit' ? decision.arguments : argumentsOf(messages, callId);
  const result = await runHeldCall(options, question, { kind: 'approved', input });
  const edited = decision.decision === 'edit' ? ' with the arguments the user edited' : '';
  return {
    result: edited
      ? {
          ...result,
          contextText: `(run${edited}: ${JSON.stringify(options.batch.redact.value(input))}) ${result.contextText}`,
        }
      : result,
    note: `The user approved the call to ${toolName}${edited}; it ran once and its result is above. Do not call it again for this.`,
    remember: {
      toolName,
      ...(question.argsHash ? { argsHash: question.argsHash } : {}),
      result: JSON.stringify(result),
    },
  };
}
