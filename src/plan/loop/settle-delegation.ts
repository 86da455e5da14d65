/**
 * A plan item's answer that goes on to another agent: the user's answer to a question that
 * `delegate_to_agent` brought back (A2A `input-required`) is sent to the remote task, and the task's
 * result — or its next question — becomes the call's.
 */
import { answerDelegation, delegateToAgentToolName } from '../../a2a/index.js';
import type { SuspensionRecord, TodoItem, ToolCallResult } from '../../spec/index.js';
import type { PlanRun } from './plan-run.js';

/**
 * An answer for `delegate_to_agent` goes to the remote agent's task (it asked through A2A
 * `input-required`); its result, or its next question, is the call's. Other feedback is the answer itself.
 */
export async function settleDelegation(
  run: PlanRun,
  item: TodoItem,
  question: SuspensionRecord,
  answer: unknown,
): Promise<ToolCallResult | { ask: string } | undefined> {
  if (question.toolName !== delegateToAgentToolName || !run.delegation || !question.callId) return undefined;
  const outcome = await answerDelegation({
    ...run.delegation,
    idempotencyKey: `${run.turn.threadId}:${item.runTurnId ?? run.turn.turnId}:${question.callId}`,
    text: typeof answer === 'string' ? answer : JSON.stringify(answer),
    ...(run.signal ? { signal: run.signal } : {}),
  });
  if (outcome.status === 'input-required')
    return { ask: `Agent '${outcome.agentId}' asks: ${outcome.question}` };
  const base = { callId: question.callId, toolName: delegateToAgentToolName };
  if (outcome.status === 'failed') {
    const message = run.batch.redact.text(outcome.message);
    return {
      ...base,
      status: 'error',
      error: { category: 'server_error', message, retryable: false },
      contextText: `Error (server_error) from tool '${delegateToAgentToolName}': ${message}`,
    };
  }
  const output = {
    agentId: outcome.agentId,
    taskId: outcome.taskId,
    text: outcome.text,
    artifacts: outcome.artifacts,
  };
  const text = run.batch.redact.text(JSON.stringify(output));
  return {
    ...base,
    status: 'success',
    output: run.batch.redact.value(output),
    contextText: capText(text, run.batch.maxContextChars),
  };
}

function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…[${text.length - max} characters omitted]`;
}
