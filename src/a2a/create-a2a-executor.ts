/**
 * The A2A agent executor over a flowstack agent. A task's context is the thread: the first message of
 * a context starts the thread, and later tasks in the same context continue its conversation. A turn
 * that needs the user — a slot question or a suspended tool — leaves the task `input-required`; the
 * client's next message on the task answers it (a suspension is resumed with the message as feedback).
 * A thread belongs to the principal that started it; another principal's task on it fails as if the
 * thread did not exist.
 */
import type { Artifact, Message, Task, TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { FlowstackError } from '../errors/index.js';
import { summarizeThreadEvents } from '../observe/index.js';
import type { Observation } from '../spec/index.js';
import type { Clock, IdGenerator } from '../util/index.js';
import type { A2ATurn, A2ATurnPort } from './a2a-turn-port.js';
import { agentMessage, dataPart, readText, textPart } from './internal/a2a-parts.js';
import { feedbackFromMessage } from './internal/feedback-from-message.js';
import { a2aSdk, a2aServerSdk, loadA2AServerSdk } from './internal/load-a2a-sdk.js';

export interface A2AExecutorOptions {
  port: A2ATurnPort;
  ids: IdGenerator;
  clock: Clock;
}

const threadIdPattern = /^[\w.:-]{1,128}$/;

export function createA2AExecutor(options: A2AExecutorOptions): AgentExecutor {
  const { port, ids, clock } = options;
  const running = new Map<string, { contextId: string; controller: AbortController }>();
  const contexts = new Map<string, string>();

  return {
    async execute(requestContext, eventBus) {
      await loadA2AServerSdk();
      const { taskId, contextId } = requestContext;
      const message = requestContext.userMessage;
      const now = () => new Date(clock.now()).toISOString();
      const say = (
        state: TaskState,
        text?: string,
        extra: { parts?: Message['parts']; metadata?: Record<string, unknown> } = {},
      ) =>
        eventBus.publish(
          a2aServerSdk().AgentEvent.statusUpdate({
            taskId,
            contextId,
            status: {
              state,
              message:
                text === undefined
                  ? undefined
                  : agentMessage({
                      messageId: ids('msg'),
                      contextId,
                      taskId,
                      parts: [textPart(text), ...(extra.parts ?? [])],
                      ...(extra.metadata ? { metadata: extra.metadata } : {}),
                    }),
              timestamp: now(),
            },
            metadata: extra.metadata,
          }),
        );
      eventBus.publish(
        a2aServerSdk().AgentEvent.task(requestContext.task ?? newTask(taskId, contextId, message, now())),
      );
      const principal = requestContext.context.user?.isAuthenticated
        ? requestContext.context.user.userName
        : undefined;
      const threadId = contextId;
      if (!threadIdPattern.test(threadId)) {
        say(
          a2aSdk().TaskState.TASK_STATE_REJECTED,
          'The context id must have 1–128 letters, digits, _ . : or -.',
        );
        return;
      }
      const stored = await port.store.loadThread(threadId);
      if (stored && stored.principal !== principal) {
        say(a2aSdk().TaskState.TASK_STATE_FAILED, `No thread '${threadId}'.`);
        return;
      }
      const controller = new AbortController();
      running.set(taskId, { contextId, controller });
      contexts.set(taskId, contextId);
      say(a2aSdk().TaskState.TASK_STATE_WORKING);
      const unsubscribe = port.subscribe(
        (observation) => {
          const text = describeProgress(observation);
          if (text && !controller.signal.aborted)
            say(a2aSdk().TaskState.TASK_STATE_WORKING, text, { metadata: { flowstack: { observation } } });
        },
        { threadId, progress: true },
      );
      try {
        const turn = await runTurn(port, { requestContext, threadId, principal, signal: controller.signal });
        if (controller.signal.aborted) return;
        publishTurn(turn, { eventBus, taskId, contextId, say, ids });
        if (turn.status !== 'needs-input' && turn.status !== 'suspended') contexts.delete(taskId);
      } catch (error) {
        if (controller.signal.aborted) return;
        const text = FlowstackError.isInstance(error)
          ? error.message
          : 'The agent failed; the error is in its log.';
        say(
          a2aSdk().TaskState.TASK_STATE_FAILED,
          text,
          FlowstackError.isInstance(error) ? { metadata: { flowstack: { error: error.toJSON() } } } : {},
        );
        contexts.delete(taskId);
      } finally {
        unsubscribe();
        running.delete(taskId);
      }
    },

    async cancelTask(taskId: string, eventBus: ExecutionEventBus) {
      await loadA2AServerSdk();
      const entry = running.get(taskId);
      entry?.controller.abort(new Error('The A2A client cancelled the task.'));
      const contextId = entry?.contextId ?? contexts.get(taskId) ?? '';
      contexts.delete(taskId);
      eventBus.publish(
        a2aServerSdk().AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state: a2aSdk().TaskState.TASK_STATE_CANCELED,
            message: agentMessage({
              messageId: ids('msg'),
              contextId,
              taskId,
              parts: [textPart('Cancelled.')],
            }),
            timestamp: new Date(clock.now()).toISOString(),
          },
          metadata: undefined,
        }),
      );
    },
  };
}

async function runTurn(
  port: A2ATurnPort,
  options: {
    requestContext: RequestContext;
    threadId: string;
    principal: string | undefined;
    signal: AbortSignal;
  },
): Promise<A2ATurn> {
  const { requestContext, threadId, principal, signal } = options;
  const who = principal !== undefined ? { principal } : {};
  // A message on a task waiting for input answers the open suspension, when the agent can resume.
  if (requestContext.task && port.resume) {
    const suspension = (await summarizeThreadEvents(port.store, threadId)).suspensions.find(
      (s) => s.suspensionId !== undefined,
    );
    if (suspension?.suspensionId !== undefined)
      return port.resume({
        threadId,
        suspensionId: suspension.suspensionId,
        feedback: feedbackFromMessage(requestContext.userMessage),
        signal,
        ...who,
      });
  }
  return port.send({ threadId, text: readText(requestContext.userMessage), signal, ...who });
}

function publishTurn(
  turn: A2ATurn,
  context: {
    eventBus: ExecutionEventBus;
    taskId: string;
    contextId: string;
    ids: IdGenerator;
    say: (
      state: TaskState,
      text?: string,
      extra?: { parts?: Message['parts']; metadata?: Record<string, unknown> },
    ) => void;
  },
): void {
  const { eventBus, taskId, contextId, say } = context;
  const metadata = { flowstack: { threadId: turn.threadId, turnId: turn.turnId, status: turn.status } };
  if (turn.status === 'completed') {
    const artifact: Artifact = {
      artifactId: `reply-${turn.turnId}`,
      name: 'reply',
      description: 'The agent’s answer',
      parts: [textPart(turn.reply), ...turn.frames.map((frame) => dataPart(frame))],
      metadata: undefined,
      extensions: [],
    };
    eventBus.publish(
      a2aServerSdk().AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact,
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    say(a2aSdk().TaskState.TASK_STATE_COMPLETED, turn.reply, { metadata });
  } else if (turn.status === 'failed') {
    say(a2aSdk().TaskState.TASK_STATE_FAILED, turn.reply, { metadata });
  } else {
    const suspended = turn.observations.findLast((o) => o.type === 'suspended');
    const parts = suspended ? [dataPart(suspended.data)] : [];
    say(a2aSdk().TaskState.TASK_STATE_INPUT_REQUIRED, turn.reply, { parts, metadata });
  }
}

function newTask(taskId: string, contextId: string, message: Message, timestamp: string): Task {
  return {
    id: taskId,
    contextId,
    status: { state: a2aSdk().TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp },
    artifacts: [],
    history: [message],
    metadata: { flowstack: { threadId: contextId } },
  };
}

/** A short line for the observations worth a `working` update while a turn runs. */
function describeProgress(observation: Observation): string | undefined {
  const data = observation.data;
  if (observation.id === 0 && observation.type === 'tool-call') return `Calling ${String(data.toolName)}…`;
  if (observation.id === 0) return undefined;
  if (observation.type === 'plan')
    return `Planned ${Array.isArray(data.items) ? data.items.length : 0} steps.`;
  if (observation.type === 'item-status-change')
    return `Step ${String(data.itemId)}: ${String(data.to ?? data.status)}.`;
  return undefined;
}
