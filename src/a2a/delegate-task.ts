/**
 * One delegation to a remote A2A agent, exactly once: the journal row is started before the message is
 * sent; the remote task id is saved as soon as it is known; a run that finds its row started but without
 * a task id (a crash in between) asks the agent for tasks of the delegation's context before sending
 * anything, and reports `outcome_unknown` rather than risk a second submission when it cannot ask.
 */
import type { Message, Task } from '@a2a-js/sdk';
import type { StateStore } from '../spec/index.js';
import { type Clock, stableHash } from '../util/index.js';
import type { A2ADelegationLimits } from './a2a-agent-reference.js';
import type { A2AClientPool, A2AConnection } from './create-a2a-client-pool.js';
import type { DelegationOutcome } from './delegation-outcome.js';
import { isMessage, outcomeOfMessage, outcomeOfTask } from './internal/a2a-task-view.js';
import { awaitTask, sendAndAwait } from './internal/await-a2a-task.js';
import {
  type DelegationRecord,
  delegationIds,
  readDelegation,
  recordKeyOf,
  saveDelegation,
} from './internal/delegation-record.js';
import { loadA2ASdk } from './internal/load-a2a-sdk.js';

export interface DelegationContext {
  pool: A2AClientPool;
  store: StateStore;
  clock: Clock;
  limits: A2ADelegationLimits;
}

export interface DelegateTaskOptions extends DelegationContext {
  idempotencyKey: string;
  threadId: string;
  callId: string;
  agentId: string;
  text: string;
  signal?: AbortSignal;
}

export async function delegateTask(options: DelegateTaskOptions): Promise<DelegationOutcome> {
  const { store, clock, idempotencyKey: key, agentId } = options;
  const connection = await options.pool.connect(agentId);
  const { contextId, messageId } = delegationIds(key);
  const found = await readDelegation(store, key);
  let record: DelegationRecord = found.record ?? { agentId, contextId, replies: 0 };
  if (record.outcome) return record.outcome;
  const save = async (task: Task) => {
    record = { ...record, taskId: task.id };
    await saveDelegation(store, key, record, clock.now());
  };
  let result: Task | Message;
  if (record.taskId !== undefined) {
    result = await awaitTask(connection, record.taskId, options);
  } else {
    const earlier = found.started ? await findEarlierTask(connection, contextId) : undefined;
    if (earlier === 'unknown')
      return {
        status: 'failed',
        agentId,
        state: 'outcome_unknown',
        message: `outcome_unknown: a delegation to '${agentId}' may have been sent before an interruption, and the agent cannot list its tasks; it is not sent again.`,
      };
    if (earlier) {
      await save(earlier);
      result = await awaitTask(connection, earlier.id, options);
    } else {
      if (!found.started)
        await store.journalStart({
          key: recordKeyOf(key),
          threadId: options.threadId,
          callId: options.callId,
          toolName: `a2a:${agentId}`,
          argsHash: stableHash({ agentId, text: options.text }),
          idempotent: false,
          status: 'started',
          startedAt: clock.now(),
        });
      const message = (await loadA2ASdk()).Message.fromJSON({
        messageId,
        contextId,
        role: 'ROLE_USER',
        parts: [{ text: options.text }],
      });
      result = await sendAndAwait(connection, message, { ...options, onTask: save });
    }
  }
  return settle(options, key, record, result);
}

/** Records how the task stopped and returns its outcome. */
export async function settle(
  context: DelegationContext,
  key: string,
  record: DelegationRecord,
  result: Task | Message,
): Promise<DelegationOutcome> {
  const outcome = isMessage(result)
    ? outcomeOfMessage(record.agentId, result)
    : outcomeOfTask(record.agentId, result);
  const taskId = outcome.taskId || record.taskId;
  const next: DelegationRecord = { ...record, ...(taskId ? { taskId } : {}) };
  if (outcome.status === 'input-required') next.question = outcome.question;
  else {
    next.outcome = outcome;
    delete next.question;
  }
  await context.store.journalFinish({
    key: recordKeyOf(key),
    status: outcome.status === 'failed' ? 'failed' : 'succeeded',
    result: JSON.stringify(next),
    finishedAt: context.clock.now(),
  });
  return outcome;
}

async function findEarlierTask(
  connection: A2AConnection,
  contextId: string,
): Promise<Task | undefined | 'unknown'> {
  try {
    const listed = await connection.client.listTasks({
      tenant: '',
      contextId,
      status: 0,
      pageToken: '',
      statusTimestampAfter: undefined,
      pageSize: 1,
    });
    return listed.tasks[0];
  } catch {
    return 'unknown';
  }
}
