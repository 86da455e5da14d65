/**
 * Settles a feedback question: the answer is the call's result and the tool is not run again (seed 002:
 * "user feedback IS the tool result"), unless the tool settles the answer itself (an A2A delegation).
 */
import type { SuspensionRecord, ToolCallResult } from '../../spec/index.js';
import type { ContinueSuspendedRunOptions } from './continue-suspended-run-options.js';
import { journalAnswer } from './internal/held-call.js';
import { observeAnswer } from './internal/observe-answer.js';
import { type Settlement, textOf } from './internal/settlement.js';

/** The settlement of one feedback question. */
export async function settleFeedback(
  options: ContinueSuspendedRunOptions,
  question: SuspensionRecord,
): Promise<Settlement> {
  const callId = question.callId as string;
  const toolName = question.toolName as string;
  const answer = question.status === 'answered' ? question.answer : undefined;
  observeAnswer(options.turn, question, 'answered', options.parentId);
  const own = options.settleFeedback ? await options.settleFeedback(question, answer) : undefined;
  if (own && 'ask' in own) return { ask: own.ask };
  const shown = options.batch.redact.value(answer);
  const result: ToolCallResult = own ?? {
    status: 'success',
    callId,
    toolName,
    output: shown,
    contextText: `The user answered: ${textOf(shown)}`,
  };
  await journalAnswer(options, question, result);
  // A tool that settled the answer itself (a remote agent's reply) speaks through its result alone.
  if (own) return { result, note: '' };
  return {
    result,
    note: `The call to ${toolName} is COMPLETED: the user answered ${textOf(shown)}. That is its result; do not call ${toolName} again, go on with the answer.`,
    remember: { toolName, result: JSON.stringify(result) },
  };
}
