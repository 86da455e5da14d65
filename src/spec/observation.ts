/**
 * Observation events (seed 002), version 1. Published only after the state they describe is saved
 * (DESIGN.md invariant 4). `parentId` links an event to the flow or plan item that produced it.
 *
 * An observation with `id` 0 is live progress (a model call starting or ending, a tool running): it is
 * published as it happens, never stored and never replayed; the stored record of the same work follows
 * with the turn's save. Subscribers ask for progress explicitly.
 *
 * `text-delta`, `thoughts-delta` and `text-discard` are always live progress: the model's reply and
 * thinking as they stream, redacted as they go, and the sign that a streamed answer was abandoned (the
 * call is retried). The reply itself is stored with `final-response` (docs/decisions/0060).
 *
 * `file-rollback` (seed 004): `agent.rollback` restored a file snapshot; its data is the rollback report.
 */
export type ObservationType =
  | 'intent'
  | 'title'
  | 'plan'
  | 'plan-update'
  | 'item-status-change'
  | 'flow-push'
  | 'flow-pop'
  | 'thoughts'
  | 'tool-call'
  | 'tool-execution'
  | 'synthesis'
  | 'clarification'
  | 'recovery'
  | 'suspended'
  | 'resumed'
  | 'file-rollback'
  | 'final-response'
  | 'model-stream-start'
  | 'model-stream-metadata'
  | 'model-stream-end'
  | 'model-stream-error'
  | 'text-delta'
  | 'thoughts-delta'
  | 'text-discard'
  | 'error';

export interface ObservationV1 {
  readonly specVersion: 1;
  /** Store-assigned, increasing; the SSE event id. Zero until stored, and always zero for live progress. */
  id: number;
  threadId: string;
  /** The turn that produced it. */
  turnId: string;
  type: ObservationType;
  parentId?: string;
  time: number;
  data: Record<string, unknown>;
}

export type Observation = ObservationV1;

/** An observation before the store assigns its id. */
export type ObservationDraft = Omit<Observation, 'id'>;
