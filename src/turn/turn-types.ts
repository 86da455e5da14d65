/**
 * What a turn returns and the bounds it runs within: the types the turn's record, the shell and the
 * loops below it share.
 */
import type { TurnUsage } from '../observe/index.js';
import type { DisplayFrame } from '../respond/index.js';
import type {
  FileSnapshotSummary,
  FlowInstance,
  Observation,
  PendingQuestion,
  SuspensionRecord,
  ThreadSnapshot,
} from '../spec/index.js';

/** The turn's bounds (`createAgent({ limits })`); their defaults are in the one table (`defaultBounds`). */
export type { AgentLimits } from '../spec/index.js';

export type TurnStatus = 'completed' | 'needs-input' | 'suspended' | 'failed';

export interface TurnResult {
  threadId: string;
  turnId: string;
  status: TurnStatus;
  reply: string;
  frames: DisplayFrame[];
  /** The flow stack after the turn, top last. */
  stack: FlowInstance[];
  /** The question the next message answers, when one is pending. */
  pending?: PendingQuestion;
  /** Observations of this turn, with their store ids. */
  observations: Observation[];
  /** The questions the thread waits for people to answer (`agent.resume`), when there are any. */
  suspensions?: SuspensionView[];
  /**
   * After a turn that failed or stopped: the thread's file snapshots whose calls failed, were aborted
   * or never finished, and that nobody has rolled back or kept yet — `agent.rollback` restores one.
   */
  fileSnapshots?: FileSnapshotSummary[];
  /**
   * What this turn's model calls used: tokens in and out (with the cached part of the input), per model,
   * and the cost when `telemetry.prices` names every model called. Absent only on a turn answered again
   * from its saved result (a repeated `requestId`), whose calls were counted the first time.
   */
  usage?: TurnUsage;
}

/** A question for people as the API shows it: a `SuspensionRecord` without its internals. */
export type SuspensionView = Omit<SuspensionRecord, 'specVersion' | 'answer'>;

export interface ConversationMessage {
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  turnId: string;
}

export interface ThreadView {
  threadId: string;
  version: number;
  snapshot: ThreadSnapshot;
  messages: ConversationMessage[];
  /** Every question of the thread's waiting runs, open, answered or expired. */
  suspensions: SuspensionView[];
  /** Snapshots of the files its tool calls changed, oldest first (`agent.rollback` restores one). */
  fileSnapshots: FileSnapshotSummary[];
}
