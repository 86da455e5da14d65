/**
 * The working record of one turn: the snapshot being changed and the rows to append when it is saved.
 * Nothing here is visible outside the turn until `commitTurn` saves it in one transaction.
 */

import type { DialogueState } from '../flow/index.js';
import type { ReplyPart } from '../respond/index.js';
import type {
  DialogueChange,
  FlowInstance,
  HistoryDraft,
  ObservationDraft,
  ObservationType,
  ThreadSnapshot,
} from '../spec/index.js';
import type { TaintState } from '../tool/index.js';
import type { Clock, StopSource } from '../util/index.js';

export interface TurnState {
  threadId: string;
  turnId: string;
  snapshot: ThreadSnapshot;
  /** Version the snapshot was read at (0 for a new thread). */
  baseVersion: number;
  history: HistoryDraft[];
  observations: ObservationDraft[];
  replyParts: ReplyPart[];
  failed: boolean;
  suspended: boolean;
  clock: Clock;
  /** The thread's lease the turn holds: once it is lost to another process, the turn's commits are refused. */
  lease: StopSource | undefined;
  /** The dialogue state when the turn began, for the turn's diff. */
  dialogueStart?: DialogueState;
  /** The dialogue state at the last diff note. */
  dialogueLast?: DialogueState;
  /** The dialogue changes of this turn so far. */
  changes?: DialogueChange[];
  /** Flows popped during the turn, oldest first. */
  finished?: FlowInstance[];
  /** The turn's taint, shared by its skill runs and saved with its commits (`openThreadTaint`). */
  taint?: TurnTaint;
}

/** The turn's taint: shared by every skill run of the turn, saved with each of its commits. */
export interface TurnTaint {
  state: TaintState;
  /** The scratchpad notes as the turn found them, to tell which ones it wrote. */
  notesAtStart: ReadonlySet<string>;
}

/** A new turn's record on a loaded thread; `carried` are observations to save with its first commit. */
export function createTurnRecord(options: {
  threadId: string;
  turnId: string;
  snapshot: ThreadSnapshot;
  baseVersion: number;
  clock: Clock;
  lease: StopSource | undefined;
  carried?: readonly ObservationDraft[];
}): TurnState {
  return {
    threadId: options.threadId,
    turnId: options.turnId,
    snapshot: options.snapshot,
    baseVersion: options.baseVersion,
    clock: options.clock,
    lease: options.lease,
    history: [],
    observations: [...(options.carried ?? [])],
    replyParts: [],
    failed: false,
    suspended: false,
  };
}

export function observe(
  turn: TurnState,
  type: ObservationType,
  data: Record<string, unknown>,
  parentId?: string,
  /** When it happened; now when left out (events recorded together share one reading of the clock). */
  time: number = turn.clock.now(),
): void {
  const draft: ObservationDraft = {
    specVersion: 1,
    threadId: turn.threadId,
    turnId: turn.turnId,
    type,
    time,
    data,
  };
  if (parentId !== undefined) draft.parentId = parentId;
  turn.observations.push(draft);
}

/** Appends a history row to the turn, saved with the turn's next commit. */
export function record(turn: TurnState, kind: HistoryDraft['kind'], data: unknown): void {
  turn.history.push({ kind, data: JSON.stringify(data), turnId: turn.turnId });
}
