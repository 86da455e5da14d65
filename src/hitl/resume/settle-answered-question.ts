/**
 * Settles one answered question of a suspended run's step by its kind: a file question (its files rolled
 * back or kept), an approval, an unknown outcome, or feedback. The result takes the place of the call's
 * suspended result in the run's checkpoint.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { SuspensionRecord } from '../../spec/index.js';
import type { ContinueSuspendedRunOptions } from './continue-suspended-run-options.js';
import { journalAnswer } from './internal/held-call.js';
import { observeAnswer } from './internal/observe-answer.js';
import type { Settlement } from './internal/settlement.js';
import { settleApproval } from './settle-approval.js';
import { settleFeedback } from './settle-feedback.js';
import { settleFileQuestion } from './settle-file-question.js';
import { settleUnknownOutcome } from './settle-unknown-outcome.js';

/** The settlement of one answered (or expired) question about a call. */
export async function settleAnsweredQuestion(
  options: ContinueSuspendedRunOptions,
  question: SuspensionRecord,
  messages: readonly LanguageModelV3Message[],
): Promise<Settlement> {
  if (question.kind === 'rollback') {
    const settled = await settleFileQuestion(options.batch, question);
    observeAnswer(options.turn, question, settled.decision, options.parentId);
    await journalAnswer(options, question, settled.result);
    return settled;
  }
  if (question.kind === 'approval') return settleApproval(options, question, messages);
  if (question.kind === 'outcome_unknown') return settleUnknownOutcome(options, question, messages);
  return settleFeedback(options, question);
}
