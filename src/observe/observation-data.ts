/**
 * What each observation type carries in `data` (seed 002). The store keeps `data` as JSON, so these
 * types describe what flowstack writes; fields that later layers add (plans, suspensions) are
 * optional, and every shape stays open to fields a newer flowstack adds.
 */
import type { Observation, ObservationType } from '../spec/index.js';

type Open = { [key: string]: unknown };

/** A plan item as observations show it (the TodoList of seed 002). */
export interface ObservedPlanItem extends Open {
  id: string;
  description: string;
  status: 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled' | 'waiting' | (string & {});
  dependsOn?: string[];
}

export interface ObservationDataMap {
  intent: Open & { flow: string; source: string; slot?: string; slots?: Record<string, unknown> };
  title: Open & { title: string };
  plan: Open & { planId: string; items: ObservedPlanItem[]; title?: string };
  'plan-update': Open & {
    planId: string;
    items?: ObservedPlanItem[];
    changes: {
      added: ObservedPlanItem[];
      modified: { before: ObservedPlanItem; after: ObservedPlanItem }[];
      removed: ObservedPlanItem[];
    };
  };
  'item-status-change': Open & {
    planId?: string;
    itemId: string;
    /** The new status. */
    to: ObservedPlanItem['status'];
    from?: ObservedPlanItem['status'];
    summary?: string;
  };
  'flow-push': Open & { flow: string; flowId: string; slots: Record<string, unknown>; existing?: boolean };
  'flow-pop': Open & { flow: string; flowId: string; status: string };
  thoughts: Open & { text: string };
  'tool-call': Open & { callId: string; toolName: string; input?: unknown };
  'tool-execution': Open & { callId: string; toolName: string; status: string; durationMs?: number };
  /** A plan's answer: `content` is the reply; `sources` and `suggestedQuestions` are for a UI. */
  synthesis: Open & {
    planId?: string;
    content?: string;
    sources?: string[];
    suggestedQuestions?: string[];
    text?: string;
  };
  clarification: Open & { slot: string; question: string };
  suspended: Open & {
    callId: string;
    toolName: string;
    reason: string;
    suspensionId?: string;
    /** The arguments waiting for approval (redacted), when the suspension is an approval. */
    input?: unknown;
  };
  resumed: Open & { suspensionId?: string; callId?: string; decision?: string };
  /** `agent.rollback` restored a file snapshot (seed 004): the rollback report, and who asked. */
  'file-rollback': Open & {
    snapshotId: string;
    callId: string;
    toolName: string;
    restored: string[];
    removed: string[];
    by?: string;
  };
  'final-response': Open & { text: string; status: string };
  'model-stream-start': Open & { phase: string; flow?: string; provider: string; model: string };
  'model-stream-metadata': Open & { phase: string; responseId?: string; model?: string };
  'model-stream-end': Open & {
    phase: string;
    flow?: string;
    inputTokens: number;
    outputTokens: number;
    finishReason: string;
  };
  'model-stream-error': Open & { phase: string; flow?: string; message: string };
  /** A piece of the reply as it streams (live only); `textId` names the model answer it belongs to. */
  'text-delta': Open & { textId: string; delta: string };
  /** A piece of the model's thinking as it streams (live only). */
  'thoughts-delta': Open & { textId: string; delta: string };
  /** The streamed answer `textId` was abandoned (its call is retried): a UI drops what it showed of it. */
  'text-discard': Open & { textId: string };
  error: Open & { phase: string; message?: string; problems?: string[]; category?: string };
}

/** What an observation of type `T` carries; an open record for types this map does not describe. */
export type ObservationDataOf<T extends ObservationType> = T extends keyof ObservationDataMap
  ? ObservationDataMap[T]
  : Record<string, unknown>;

/** An observation whose `data` is typed by its `type`. */
export type ObservationOf<T extends ObservationType> = T extends ObservationType
  ? Omit<Observation, 'type' | 'data'> & { type: T; data: ObservationDataOf<T> }
  : never;

/** True when `observation` is of one of `types`; narrows its `data`. */
export function isObservationOf<T extends ObservationType>(
  observation: Observation,
  ...types: T[]
): observation is Observation & ObservationOf<T> {
  return (types as ObservationType[]).includes(observation.type);
}

/** Live progress (id 0) is published as it happens and never stored (see `ObservationV1`). */
export function isProgress(observation: Observation): boolean {
  return observation.id === 0;
}
