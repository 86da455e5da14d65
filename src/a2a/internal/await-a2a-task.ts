/**
 * Getting a remote task to a stop state (terminal, or interrupted for input): by streaming when the
 * connection streams, else by polling `getTask` on the injected clock. Both are bounded by one
 * deadline on that clock; a stream that ends early falls back to polling.
 */
import type { Message, SendMessageRequest, Task, TaskStatus } from '@a2a-js/sdk';
import type { Clock } from '../../util/index.js';
import type { A2ADelegationLimits } from '../a2a-agent-reference.js';
import type { A2AConnection } from '../create-a2a-client-pool.js';
import { applyStreamEvent, isMessage, isStopState } from './a2a-task-view.js';

export interface AwaitTaskOptions {
  clock: Clock;
  limits: A2ADelegationLimits;
  signal?: AbortSignal;
  /** Called once, as soon as the remote task's id is known (before waiting for it). */
  onTask?: (task: Task) => Promise<void>;
  /**
   * The status the task had when a reply was sent to it: a follow-up stream starts with the task as it
   * was (still `input-required`), and that old status is not where the wait stops.
   */
  since?: TaskStatus;
}

/** A stop state that is not the status the wait started from. */
function hasStopped(task: Task, since: TaskStatus | undefined): boolean {
  const status = task.status;
  if (!isStopState(status?.state)) return false;
  if (!since || !status) return true;
  return !(
    status.state === since.state &&
    status.timestamp === since.timestamp &&
    (status.message?.messageId ?? '') === (since.message?.messageId ?? '')
  );
}

/** Sends a message and waits until its task stops; a plain message answer is returned as it is. */
export async function sendAndAwait(
  connection: A2AConnection,
  message: Message,
  options: AwaitTaskOptions,
): Promise<Task | Message> {
  return withDeadline(options, async (signal) => {
    const request: SendMessageRequest = {
      tenant: '',
      message,
      configuration: undefined,
      metadata: undefined,
    };
    if (connection.streaming) {
      let task: Task | undefined;
      for await (const event of connection.client.sendMessageStream(request, { signal })) {
        if (event.payload?.$case === 'message' && !task) return event.payload.value;
        const before = task;
        task = applyStreamEvent(task, event);
        if (task && !before) await options.onTask?.(task);
        if (task && hasStopped(task, options.since)) return task;
      }
      if (!task) throw new Error(`Agent '${connection.agent.id}' ended its stream without a task.`);
      return poll(connection, task, options, signal);
    }
    const answer = await connection.client.sendMessage(request, { signal });
    if (isMessage(answer)) return answer;
    await options.onTask?.(answer);
    return poll(connection, answer, options, signal);
  });
}

/** Waits for a task that was sent before (after a restart, or after the user answered its question). */
export async function awaitTask(
  connection: A2AConnection,
  taskId: string,
  options: AwaitTaskOptions,
): Promise<Task> {
  return withDeadline(options, async (signal) => {
    const task = await connection.client.getTask(
      { tenant: '', id: taskId, historyLength: undefined },
      { signal },
    );
    if (isStopState(task.status?.state) || !connection.streaming)
      return poll(connection, task, options, signal);
    let current: Task | undefined = task;
    for await (const event of connection.client.resubscribeTask({ tenant: '', id: taskId }, { signal })) {
      current = applyStreamEvent(current, event);
      if (current && hasStopped(current, options.since)) return current;
    }
    return poll(connection, current ?? task, options, signal);
  });
}

async function poll(
  connection: A2AConnection,
  task: Task,
  options: AwaitTaskOptions,
  signal: AbortSignal,
): Promise<Task> {
  let current = task;
  while (!hasStopped(current, options.since)) {
    await options.clock.sleep(options.limits.pollIntervalMs, signal);
    current = await connection.client.getTask(
      { tenant: '', id: current.id, historyLength: undefined },
      { signal },
    );
  }
  return current;
}

/** Runs `work` with a signal that aborts at the deadline (or with the caller's signal). */
async function withDeadline<T>(
  options: AwaitTaskOptions,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = new AbortController();
  const timer = new AbortController();
  const timeout = new Error(`The delegated task did not finish within ${options.limits.timeoutMs} ms.`);
  options.clock.sleep(options.limits.timeoutMs, timer.signal).then(
    () => deadline.abort(timeout),
    () => undefined,
  );
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  try {
    return await work(signal);
  } catch (error) {
    throw deadline.signal.aborted ? Object.assign(timeout, { category: 'timeout' }) : error;
  } finally {
    timer.abort();
  }
}
