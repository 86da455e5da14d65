/**
 * Reading A2A protocol objects: which task states stop a wait, the text of parts, how stream events
 * update a task, and the outcome a finished or interrupted task stands for.
 */
import type { Artifact, Message, Part, StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import type { DelegationOutcome } from '../delegation-outcome.js';
import { a2aSdk } from './load-a2a-sdk.js';

let stopStates: Set<TaskState> | undefined;

/** Terminal, or interrupted until the client sends something. */
export function isStopState(state: TaskState | undefined): boolean {
  if (state === undefined) return false;
  const { TaskState } = a2aSdk();
  stopStates ??= new Set<TaskState>([
    TaskState.TASK_STATE_COMPLETED,
    TaskState.TASK_STATE_FAILED,
    TaskState.TASK_STATE_CANCELED,
    TaskState.TASK_STATE_REJECTED,
    TaskState.TASK_STATE_INPUT_REQUIRED,
    TaskState.TASK_STATE_AUTH_REQUIRED,
  ]);
  return stopStates.has(state);
}

export function textOfParts(parts: readonly Part[]): string {
  return parts
    .map((part) => {
      const content = part.content;
      if (!content) return '';
      if (content.$case === 'text') return content.value;
      if (content.$case === 'data') return JSON.stringify(content.value);
      if (content.$case === 'url') return content.value;
      return part.filename ? `[file ${part.filename}]` : '';
    })
    .filter((text) => text !== '')
    .join('\n');
}

/** A `Message` rather than a `Task` (a send may answer either). */
export function isMessage(value: Task | Message): value is Message {
  return 'messageId' in value && !('artifacts' in value);
}

/** Applies one stream event to the task it belongs to. */
export function applyStreamEvent(task: Task | undefined, event: StreamResponse): Task | undefined {
  const payload = event.payload;
  if (!payload || payload.$case === 'message') return task;
  if (payload.$case === 'task') return payload.value;
  if (!task) return task;
  if (payload.$case === 'statusUpdate') return { ...task, status: payload.value.status };
  const artifact = payload.value.artifact;
  if (!artifact) return task;
  const index = task.artifacts.findIndex((a) => a.artifactId === artifact.artifactId);
  const previous = index >= 0 ? (task.artifacts[index] as Artifact) : undefined;
  const merged =
    previous && payload.value.append
      ? { ...previous, parts: [...previous.parts, ...artifact.parts] }
      : artifact;
  const artifacts = [...task.artifacts];
  if (index >= 0) artifacts[index] = merged;
  else artifacts.push(merged);
  return { ...task, artifacts };
}

export function outcomeOfTask(agentId: string, task: Task): DelegationOutcome {
  const { TaskState } = a2aSdk();
  const state = task.status?.state;
  const statusText = task.status?.message ? textOfParts(task.status.message.parts) : '';
  if (state === TaskState.TASK_STATE_COMPLETED) {
    const artifacts = task.artifacts.map((a) => ({ name: a.name, text: textOfParts(a.parts) }));
    const text =
      artifacts
        .map((a) => a.text)
        .filter((t) => t !== '')
        .join('\n\n') || statusText;
    return { status: 'completed', agentId, taskId: task.id, text, artifacts };
  }
  if (state === TaskState.TASK_STATE_INPUT_REQUIRED)
    return {
      status: 'input-required',
      agentId,
      taskId: task.id,
      question: statusText || 'The agent needs more input.',
    };
  const name = state === undefined ? 'unknown' : (TaskState[state] ?? String(state));
  const reason =
    state === TaskState.TASK_STATE_AUTH_REQUIRED
      ? 'the agent needs authentication flowstack cannot give'
      : statusText;
  return {
    status: 'failed',
    agentId,
    taskId: task.id,
    state: name.replace('TASK_STATE_', '').toLowerCase(),
    message: `Agent '${agentId}' ended task ${task.id} as ${name.replace('TASK_STATE_', '').toLowerCase()}${reason ? `: ${reason}` : ''}.`,
  };
}

export function outcomeOfMessage(agentId: string, message: Message): DelegationOutcome {
  return {
    status: 'completed',
    agentId,
    taskId: message.taskId,
    text: textOfParts(message.parts),
    artifacts: [],
  };
}
