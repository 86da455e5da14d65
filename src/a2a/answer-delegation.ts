/**
 * Sends the user's answer to a delegated task that asked for input (`input-required`), and waits until
 * it stops again. The answer's message id is derived from the delegation and the answer's number, and
 * the record counts the answer before it is sent; a resumed answer that the remote task already holds
 * in its history is not sent again.
 */
import type { DelegationContext } from './delegate-task.js';
import { settle } from './delegate-task.js';
import type { DelegationOutcome } from './delegation-outcome.js';
import { awaitTask, sendAndAwait } from './internal/await-a2a-task.js';
import { delegationIds, readDelegation, saveDelegation } from './internal/delegation-record.js';
import { loadA2ASdk } from './internal/load-a2a-sdk.js';

export interface AnswerDelegationOptions extends DelegationContext {
  /** The idempotency key of the `delegate_to_agent` call that suspended. */
  idempotencyKey: string;
  text: string;
  signal?: AbortSignal;
}

export async function answerDelegation(options: AnswerDelegationOptions): Promise<DelegationOutcome> {
  const { store, clock, idempotencyKey: key } = options;
  const { record } = await readDelegation(store, key);
  if (!record?.taskId)
    return {
      status: 'failed',
      agentId: record?.agentId ?? 'unknown',
      state: 'unknown',
      message: 'No delegated task is waiting for an answer.',
    };
  if (record.outcome) return record.outcome;
  try {
    const connection = await options.pool.connect(record.agentId);
    const task = await connection.client.getTask({ tenant: '', id: record.taskId, historyLength: undefined });
    const counted = record.question !== undefined ? { ...record, replies: record.replies + 1 } : record;
    const { messageId } = delegationIds(key, counted.replies);
    if (counted !== record)
      await saveDelegation(store, key, { ...counted, question: undefined }, clock.now());
    const alreadySent = task.history.some((m) => m.messageId === messageId);
    const waitOptions = { ...options, ...(task.status && !alreadySent ? { since: task.status } : {}) };
    const result = alreadySent
      ? await awaitTask(connection, record.taskId, waitOptions)
      : await sendAndAwait(
          connection,
          (await loadA2ASdk()).Message.fromJSON({
            messageId,
            contextId: task.contextId,
            taskId: record.taskId,
            role: 'ROLE_USER',
            parts: [{ text: options.text }],
          }),
          waitOptions,
        );
    return await settle(options, key, { ...counted, question: undefined }, result);
  } catch (error) {
    return {
      status: 'failed',
      agentId: record.agentId,
      taskId: record.taskId,
      state: 'unreachable',
      message: `The answer could not be delivered to agent '${record.agentId}': ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
