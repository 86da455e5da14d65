/**
 * What `agent.stream()` yields: the turn as it happens, in typed parts. Text and thinking deltas and tool
 * calls come live; flow and plan changes come once saved (they are the thread's observations); the
 * questions the turn leaves and its result come last. Pieces of one model answer share an `id`.
 */
import type { ObservationOf } from '../observe/index.js';
import type { Observation, PendingQuestion } from '../spec/index.js';
import type { SuspensionView, TurnResult } from './turn-types.js';

export type TurnStreamPart =
  /** A piece of the reply as the model writes it, redacted. Concatenated, one `id`'s pieces are its answer. */
  | { type: 'text-delta'; id: string; delta: string; flowId?: string }
  /** A piece of the model's thinking, where the model gives it. */
  | { type: 'reasoning-delta'; id: string; delta: string; flowId?: string }
  /** The answer `id` was given up (its call is asked again): drop what was shown of it. */
  | { type: 'text-discard'; id: string }
  /** A tool call starts running, with its arguments (redacted). */
  | { type: 'tool-call-start'; callId: string; toolName: string; input: unknown; flowId?: string }
  | { type: 'tool-call-end'; callId: string; toolName: string; status: string; durationMs?: number }
  | { type: 'flow-change'; observation: ObservationOf<'flow-push' | 'flow-pop'> }
  | { type: 'plan-change'; observation: ObservationOf<'plan' | 'plan-update' | 'item-status-change'> }
  /** A tool call waits for a person's yes (`agent.resume({ suspensionId, feedback })`). */
  | { type: 'approval-request'; suspension: SuspensionView }
  /** The turn waits for an answer: the next message (`pending`) or a suspension's feedback. */
  | { type: 'question'; question: PendingQuestion | SuspensionView }
  /** The turn is saved: the same result `send()` returns. Always the last part. */
  | { type: 'finish'; result: TurnResult };

/** The part an observation of the thread's stream is, if it is one (stored tool rows repeat live ones). */
export function toTurnStreamPart(observation: Observation): TurnStreamPart | undefined {
  const { data } = observation;
  const flowId = observation.parentId !== undefined ? { flowId: observation.parentId } : {};
  const live = observation.id === 0;
  switch (observation.type) {
    case 'text-delta':
    case 'thoughts-delta':
      return {
        type: observation.type === 'text-delta' ? 'text-delta' : 'reasoning-delta',
        id: String(data.textId),
        delta: String(data.delta),
        ...flowId,
      };
    case 'text-discard':
      return { type: 'text-discard', id: String(data.textId) };
    case 'tool-call':
      if (!live) return undefined;
      return {
        type: 'tool-call-start',
        callId: String(data.callId),
        toolName: String(data.toolName),
        input: data.input,
        ...flowId,
      };
    case 'tool-execution':
      if (!live) return undefined;
      return {
        type: 'tool-call-end',
        callId: String(data.callId),
        toolName: String(data.toolName),
        status: String(data.status),
        ...(typeof data.durationMs === 'number' ? { durationMs: data.durationMs } : {}),
      };
    case 'flow-push':
    case 'flow-pop':
      return { type: 'flow-change', observation: observation as ObservationOf<'flow-push' | 'flow-pop'> };
    case 'plan':
    case 'plan-update':
    case 'item-status-change':
      return {
        type: 'plan-change',
        observation: observation as ObservationOf<'plan' | 'plan-update' | 'item-status-change'>,
      };
    default:
      return undefined;
  }
}

/** The parts that end a turn: its open questions, then its result. */
export function closingParts(result: TurnResult): TurnStreamPart[] {
  const parts: TurnStreamPart[] = [];
  for (const suspension of result.suspensions ?? []) {
    if (suspension.status !== 'open') continue;
    parts.push(
      suspension.kind === 'approval'
        ? { type: 'approval-request', suspension }
        : { type: 'question', question: suspension },
    );
  }
  if (result.pending) parts.push({ type: 'question', question: result.pending });
  parts.push({ type: 'finish', result });
  return parts;
}
