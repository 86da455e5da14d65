/**
 * The `StateStore` contract, version 1 (DESIGN.md §6). Every store (memory, SQLite, PostgreSQL) passes
 * the conformance suite in `flowstack/test`. A store keeps snapshots as opaque JSON text: decoding,
 * version checks and migrations happen once, in `src/store/`, so a corrupt row is never rewritten.
 */

export interface StoredThread {
  threadId: string;
  /** Optimistic version; 1 after the first commit. */
  version: number;
  /** The snapshot as JSON text, exactly as committed. */
  data: string;
  principal?: string;
  createdAt: number;
  updatedAt: number;
}

export type HistoryKind = 'message' | 'tool-call' | 'tool-result' | 'step-output' | 'frame';

export interface HistoryDraft {
  kind: HistoryKind;
  /** JSON text. */
  data: string;
  turnId: string;
}

export interface HistoryEntry extends HistoryDraft {
  threadId: string;
  /** 1-based position in the thread's history. */
  seq: number;
  createdAt: number;
}

export interface ObservationRow {
  /** Store-wide increasing id. */
  id: number;
  threadId: string;
  type: string;
  /** The whole observation as JSON text (without its id). */
  data: string;
  createdAt: number;
}

/** One atomic change to a thread: the snapshot, plus rows appended in the same transaction (outbox). */
export interface ThreadCommit {
  threadId: string;
  /** The version read before the change; 0 creates the thread. A mismatch is a `VersionConflictError`. */
  expectedVersion: number;
  data: string;
  principal?: string;
  history?: HistoryDraft[];
  observations?: { type: string; data: string }[];
  now: number;
}

export interface CommitResult {
  version: number;
  historySeqs: number[];
  observationIds: number[];
}

export interface ThreadSummary {
  threadId: string;
  version: number;
  principal?: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * `suspended`: the call waits for a person; its result is the suspension, replaced by the real result
 * when the person answers.
 */
export type JournalStatus = 'started' | 'succeeded' | 'failed' | 'suspended';

/** One row per tool call, keyed by the idempotency key (thread id + call id). */
export interface JournalEntry {
  key: string;
  threadId: string;
  callId: string;
  toolName: string;
  argsHash: string;
  idempotent: boolean;
  status: JournalStatus;
  startedAt: number;
  finishedAt?: number;
  /** Redacted result or error as JSON text. */
  result?: string;
}

/** A journal entry written whole: its outcome is known when it is recorded. */
export type FinishedJournalEntry = JournalEntry & {
  status: Exclude<JournalStatus, 'started'>;
  finishedAt: number;
  result: string;
};

export interface AuditRecord {
  id: number;
  threadId: string;
  callId: string;
  toolName: string;
  capability: string;
  principal?: string;
  inputSummary: string;
  outputSummary?: string;
  risk?: string;
  /**
   * `succeeded`/`failed`: the tool ran. `replayed`: the call was answered without running the tool — from
   * the journal, from the same call approved and run earlier in the run, from the result cache, or by a
   * person's "it happened" — so it is not a second execution. `denied`: a gate, a denial or a rate limit
   * refused it; `suspended`: it waits for a person. `interrupted`: the process died during the call; the
   * replayed turn settled the row it left `started`.
   */
  status: 'started' | 'succeeded' | 'failed' | 'denied' | 'suspended' | 'replayed' | 'interrupted';
  durationMs?: number;
  createdAt: number;
}

export type AuditDraft = Omit<AuditRecord, 'id' | 'outputSummary' | 'durationMs'> & {
  outputSummary?: string;
  durationMs?: number;
};

import type { ScheduleEntry } from './schedule-spec.js';

/** What the audit rows of a deleted thread hold in place of their input and output summaries. */
export const deletedThreadMark = '[deleted with its thread]';

/**
 * One task of the A2A endpoint as the store keeps it, so that a task waiting for input is found again
 * after a restart. `data` is the task's JSON (secrets redacted); the store only files it by scope and id.
 */
export interface StoredA2ATask {
  /** Whose task it is: the caller's tenant and principal, as the endpoint writes them. */
  scope: string;
  taskId: string;
  /** The task's context, which is its thread. */
  contextId: string;
  data: string;
  updatedAt: number;
}

export interface StateStoreV1 {
  readonly specVersion: 1;
  readonly kind: string;
  loadThread(threadId: string): Promise<StoredThread | undefined>;
  commit(change: ThreadCommit): Promise<CommitResult>;
  listThreads(options?: { principal?: string; limit?: number }): Promise<ThreadSummary[]>;
  readHistory(threadId: string, options?: { afterSeq?: number; limit?: number }): Promise<HistoryEntry[]>;
  readObservations(
    threadId: string,
    options?: { afterId?: number; limit?: number },
  ): Promise<ObservationRow[]>;

  /**
   * Takes a thread's lease for `owner` until `now + ttlMs` if it is free, expired, or already held by
   * `owner`. Returns whether the lease is now held.
   */
  acquireLease(options: { threadId: string; owner: string; ttlMs: number; now: number }): Promise<boolean>;
  releaseLease(options: { threadId: string; owner: string }): Promise<void>;

  /** Inserts a started entry; if the key exists, returns the existing entry and changes nothing. */
  journalStart(entry: JournalEntry): Promise<JournalEntry>;
  journalFinish(options: {
    key: string;
    status: Exclude<JournalStatus, 'started'>;
    result: string;
    finishedAt: number;
  }): Promise<void>;
  /**
   * Inserts an entry that is already finished (a recorded model answer, say) in one write instead of a
   * start and a finish; if the key exists, returns the existing entry and changes nothing, as
   * `journalStart` does. Optional: without it the runtime calls `journalStart`, then `journalFinish`.
   */
  journalRecord?(entry: FinishedJournalEntry): Promise<JournalEntry>;
  readJournal(key: string): Promise<JournalEntry | undefined>;
  /**
   * A thread's entries in start order. With `keyPrefix` (e.g. one turn's, `threadId:turnId:`), only the
   * entries whose key starts with it, found without reading the rest of the thread.
   */
  listJournal(threadId: string, options?: { keyPrefix?: string }): Promise<JournalEntry[]>;

  appendAudit(record: AuditDraft): Promise<number>;
  completeAudit(options: {
    id: number;
    status: AuditRecord['status'];
    outputSummary: string;
    durationMs: number;
  }): Promise<void>;
  readAudit(options?: { threadId?: string; limit?: number }): Promise<AuditRecord[]>;

  /**
   * Schedules of the embedded in-process scheduler (optional: a store without them cannot keep one).
   * `saveSchedule` adds or replaces the entry with its id.
   */
  saveSchedule?(entry: ScheduleEntry): Promise<void>;
  /** Removes a schedule; false when there was none. */
  deleteSchedule?(id: string): Promise<boolean>;
  /** Every kept schedule, soonest first. */
  listSchedules?(): Promise<ScheduleEntry[]>;

  /**
   * Deletes a thread whole, in one transaction: its snapshot, history, observations, lease, journal and
   * the schedules that send to it. Its audit rows stay (who ran which tool when) with their input and
   * output summaries replaced by {@link deletedThreadMark} (docs/decisions/0076). Resolves with whether
   * the thread was there. Optional: a store without it cannot delete threads (`agent.deleteThread`
   * refuses with a `ConfigurationError`).
   */
  deleteThread?(threadId: string): Promise<boolean>;
  /**
   * Tasks of the A2A endpoint (optional: without them the endpoint keeps its tasks in memory, and a task
   * is forgotten when the process ends). `saveA2ATask` adds or replaces the task with its scope and id.
   */
  saveA2ATask?(task: StoredA2ATask): Promise<void>;
  loadA2ATask?(options: { scope: string; taskId: string }): Promise<StoredA2ATask | undefined>;
  /** A scope's tasks (only one context's, with `contextId`), most recently updated first. */
  listA2ATasks?(options: { scope: string; contextId?: string }): Promise<StoredA2ATask[]>;

  close(): Promise<void>;
}

export type StateStore = StateStoreV1;
