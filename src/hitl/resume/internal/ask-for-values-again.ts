/**
 * A held call whose sealed arguments this process cannot open (sealed under a key it does not have, see
 * docs/decisions/0078) is never run with the redacted stand-ins: its question settles as an error that
 * tells the model to ask the user for the values again, and a new call with them needs a new approval.
 */
import type { ApprovalDecision, OutcomeDecision, SuspensionRecord } from '../../../spec/index.js';
import type { Settlement } from './settlement.js';

/** Whether settling this answer would run the call with the arguments the model wrote. */
export function runsHeldArguments(question: SuspensionRecord): boolean {
  if (question.status !== 'answered') return false;
  if (question.kind === 'approval') return (question.answer as ApprovalDecision).decision === 'approve';
  if (question.kind === 'outcome_unknown')
    return (question.answer as OutcomeDecision).decision === 'not-happened';
  return false;
}

export function askForValuesAgain(question: SuspensionRecord): Settlement {
  const toolName = question.toolName as string;
  const message = `The secret values in the arguments of this call were kept encrypted under a key this process does not have (set FLOWSTACK_SECRET_KEY to the same key everywhere), so it did not run. Ask the user for them again.`;
  return {
    result: {
      status: 'error',
      callId: question.callId as string,
      toolName,
      error: { category: 'validation_error', message, retryable: false },
      contextText: `Error (validation_error) from tool '${toolName}': ${message}`,
    },
    note: `The call to ${toolName} did not run: its secret values are no longer known. Ask the user to give them again, then call it anew.`,
  };
}
