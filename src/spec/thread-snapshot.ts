/**
 * The small mutable control state of one thread, stored as one JSON document with a schema version
 * (DESIGN.md §6). Everything that only grows (messages, step outputs, observations) is appended as
 * history rows instead.
 */
import type { FlowInstance, FlowStatus } from './flow-spec.js';

export const currentSnapshotVersion = 1;

export interface DialogueFlags {
  /** The agent goes on to the next flow without waiting for the user. */
  keepGoing: boolean;
  /** A result is degraded or a check failed; cleared only at the start of the next turn. */
  hasIssues: boolean;
  /** A Plan flow is on the stack. */
  hasPlan: boolean;
  /** The thread has not had a flow yet (nothing was routed so far). */
  naturalBirth: boolean;
}

export interface ScratchpadEntry {
  key: string;
  text: string;
  /** The flow that wrote it. */
  source: string;
  time: number;
}

/**
 * The call whose result brought untrusted content into a run's context: a tool that receives untrusted
 * input (a fetched page or file, an MCP result, an A2A reply). Named in the approval reason of every
 * outbound call the content could steer.
 */
export interface TaintOrigin {
  tool: string;
  callId: string;
  /** The turn whose run the content entered. */
  turnId: string;
}

/**
 * Untrusted content the thread's context still holds (docs/decisions/0067-taint-is-thread-state.md).
 * It stays while the turn that brought it is in the conversation window later runs read, or while a
 * scratchpad note that turn wrote, or a flow that was on its stack, is still kept.
 */
export interface TaintRecord extends TaintOrigin {
  /** Scratchpad keys the turn that brought it wrote: the content may live on in them. */
  notes?: string[];
  /** Flows on the stack when that turn ended (plans with their step outputs, flows with results). */
  flows?: string[];
}

/** The four ambiguity levels of seed 000's ambiguity handler. */
export type AmbiguityLevel = 'general' | 'partial' | 'specific' | 'confirmation';

/**
 * A question the agent asked and the next user message answers: a missing `slot`, a `confirmation`
 * before a flow whose tools need approval runs, or a `clarification` the skill asked for.
 */
export interface PendingQuestion {
  kind: 'slot' | 'confirmation' | 'clarification';
  flowId: string;
  /** The slot the answer fills (kind `slot`). */
  slot?: string;
  question: string;
  level: AmbiguityLevel;
  /** The values offered, when the slot has a fixed set. */
  options?: string[];
}

/** One change to the dialogue state, as recorded in the per-turn history of diffs. */
export type DialogueChange =
  | { op: 'push'; flowId: string; name: string; planId?: string }
  | { op: 'pop'; flowId: string; name: string; status: FlowStatus }
  | { op: 'status'; flowId: string; name: string; from: FlowStatus; to: FlowStatus }
  | { op: 'slots'; flowId: string; name: string; set: Record<string, unknown>; cleared: string[] }
  | { op: 'flags'; set: Partial<DialogueFlags> }
  | { op: 'schedule'; flowId: string; name: string; dependsOn: string[] }
  | { op: 'background'; flowId: string; name: string; status: FlowStatus };

/** The dialogue state changes of one turn. */
export interface TurnDiff {
  turn: number;
  turnId: string;
  changes: DialogueChange[];
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
  /** User preferences learnt in this thread (merged over the agent's defaults). Absent means none. */
  preferences?: Record<string, unknown>;
  /** Internal flows running in the background (not on the user-facing stack). Absent means none. */
  background?: FlowInstance[];
  /** The dialogue state diffs of the last turns (bounded, oldest first). Absent means none. */
  diffs?: TurnDiff[];
  /** Untrusted content still in the thread's context, with where it came from. Absent means none. */
  taint?: TaintRecord[];
  /** Open-ended state owned by later layers (plans, suspensions, A2A tasks), keyed by layer. */
  extensions: Record<string, unknown>;
}

export type ThreadSnapshot = ThreadSnapshotV1;
