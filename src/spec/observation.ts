/**
 * Observation events (seed 002), version 1. Published only after the state they describe is saved
 * (DESIGN.md invariant 4). `parentId` links an event to the flow or plan item that produced it.
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
  | 'final-response'
  | 'model-stream-start'
  | 'model-stream-end'
  | 'model-stream-error'
  | 'error';

export interface ObservationV1 {
  readonly specVersion: 1;
  /** Store-assigned, increasing; the SSE event id. Zero until stored. */
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
