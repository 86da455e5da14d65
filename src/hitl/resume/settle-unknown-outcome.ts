/**
 * Settles a question about a call whose outcome is unknown: it happened (the person's answer is the
 * result), it did not (the call runs once more under the same key), or it is skipped.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { OutcomeDecision, SuspensionRecord, ToolCallResult } from '../../spec/index.js';
import type { ContinueSuspendedRunOptions } from './continue-suspended-run-options.js';
import { journalAnswer, runHeldCall } from './internal/held-call.js';
import { observeAnswer } from './internal/observe-answer.js';
import { refused, type Settlement, textOf } from './internal/settlement.js';
import { argumentsOf } from './suspended-transcript.js';

/** The settlement of one `outcome_unknown` question. */
export async function settleUnknownOutcome(
  options: ContinueSuspendedRunOptions,
  question: SuspensionRecord,
  messages: readonly LanguageModelV3Message[],
): Promise<Settlement> {
  const callId = question.callId as string;
  const toolName = question.toolName as string;
  const decision: OutcomeDecision =
    question.status === 'answered' ? (question.answer as OutcomeDecision) : { decision: 'skip' };
  observeAnswer(options.turn, question, decision.decision, options.parentId);
  if (decision.decision === 'not-happened') {
    const result = await runHeldCall(options, question, {
      kind: 'rerun',
      input: argumentsOf(messages, callId),
    });
    return {
      result,
      note: `The user said the earlier call to ${toolName} did not take effect; it ran again.`,
    };
  }
  const happened = decision.decision === 'happened';
  const output = happened ? (decision.output ?? 'The user confirmed this call took effect.') : undefined;
  const result: ToolCallResult = happened
    ? {
        status: 'success',
        callId,
        toolName,
        output: options.batch.redact.value(output),
        contextText: textOf(options.batch.redact.value(output)),
      }
    : refused(question, 'The user chose to leave this call out; it did not run again.');
  await journalAnswer(options, question, result);
  return {
    result,
    note: happened
      ? `The user confirmed the earlier call to ${toolName} took effect. Do not call it again for this.`
      : `The user chose to leave out the call to ${toolName}. Do not call it again.`,
  };
}
