/**
 * The small mutable control state of one thread, stored as one JSON document with a schema version
 * (DESIGN.md §6). Everything that only grows (messages, step outputs, observations) is appended as
 * history rows instead.
 */
import type { FlowInstance } from './flow-spec.js';

export const currentSnapshotVersion = 1;

export interface DialogueFlags {
  keepGoing: boolean;
  hasIssues: boolean;
  hasPlan: boolean;
  naturalBirth: boolean;
}

export interface ScratchpadEntry {
  key: string;
  text: string;
  /** The flow that wrote it. */
  source: string;
  time: number;
}

/** A question the agent asked and the next user message answers. */
export interface PendingQuestion {
  kind: 'slot';
  flowId: string;
  slot: string;
  question: string;
  level: 'general' | 'partial' | 'specific' | 'confirmation';
}

export interface ThreadSnapshotV1 {
  schemaVersion: 1;
  threadId: string;
  principal?: string;
  stack: FlowInstance[];
  flags: DialogueFlags;
  scratchpad: ScratchpadEntry[];
  pending?: PendingQuestion;
  turnCount: number;
  /** Seq of the last history row of this thread (a pointer into the append-only history). */
  historySeq: number;
  /** The turn being run when the snapshot was saved; set while a turn is under way. */
  activeTurnId?: string;
  /** Open-ended state owned by later layers (plans, suspensions, A2A tasks), keyed by layer. */
  extensions: Record<string, unknown>;
}

export type ThreadSnapshot = ThreadSnapshotV1;
