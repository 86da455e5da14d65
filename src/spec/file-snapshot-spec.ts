/**
 * File snapshots and rollback, version 1 (seed 004 state consistency; DESIGN.md §6). Before a tool
 * that declares the files it changes runs, those files are copied (bytes, existence, mode) into a
 * snapshot; if the call fails, the inverse operations restore them. Data only: what a snapshot holds,
 * how its progress is journaled, and the store contract that keeps both durable.
 */

/**
 * The files a call changes: arguments that name them — selectors into the parsed input, keys joined by
 * dots, `*` for every element of an array (or value of an object), `['path']`, `['edits.*.file']`; a
 * selected value is a path (string) or a list of paths — and fixed `paths` every call changes. Paths
 * are relative to the agent's file root. At least one of the two is given.
 */
export interface FileTouchSpec {
  arguments?: string[];
  /** Files every call changes whatever its arguments (a ledger, a config file), relative to the root. */
  paths?: string[];
}

/** One file as it was before the call: its bytes (in `content`) and mode, or that it did not exist. */
export type FileSnapshotEntry =
  | {
      /** Relative to the root, `/`-separated. */
      path: string;
      existed: true;
      /** Permission bits (`mode & 0o7777`). */
      mode: number;
      size: number;
      /** SHA-256 of the bytes, hex: a restore checks it before it writes anything. */
      sha256: string;
      /** Name of the stored content. */
      content: string;
    }
  | {
      path: string;
      existed: false;
      /** Folders on the way that did not exist either (deepest last): removed on rollback when empty. */
      createdDirs?: string[];
    };

export interface FileSnapshotRecordV1 {
  readonly specVersion: 1;
  /** `fs_` + 24 hex digits, derived from the call's idempotency key: one snapshot per call. */
  id: string;
  threadId: string;
  turnId: string;
  callId: string;
  toolName: string;
  idempotencyKey: string;
  /** The absolute root every path is relative to. */
  root: string;
  createdAt: number;
  files: FileSnapshotEntry[];
  /** SHA-256 of the record's canonical JSON without this field: a changed record is corrupt. */
  checksum: string;
}

export type FileSnapshotRecord = FileSnapshotRecordV1;

/**
 * `taken`: written before the call ran (a call that never finished leaves it so); `committed`: the call
 * succeeded; `failed`: it failed or was aborted; `kept`: a person chose to keep what it left;
 * `rolling-back` / `rolled-back`: the inverse operations are running / done; `corrupt`: its record or
 * journal cannot be read (listed so it is seen, never rolled back).
 */
export type FileSnapshotStatus =
  | 'taken'
  | 'committed'
  | 'failed'
  | 'kept'
  | 'rolling-back'
  | 'rolled-back'
  | 'corrupt';

/** One inverse operation: put the old bytes back, remove a file the call created, remove its folders. */
export type RollbackStep =
  | { kind: 'restore'; path: string; content: string; mode: number; sha256: string; size: number }
  | { kind: 'remove-file'; path: string }
  | { kind: 'remove-dir'; path: string };

/** What a rollback did; running it again returns the same report. */
export interface RollbackReport {
  snapshotId: string;
  threadId: string;
  callId: string;
  toolName: string;
  status: 'rolled-back';
  /** Files whose old bytes and mode were written back. */
  restored: string[];
  /** Files the call created, removed (those that were there when the rollback started). */
  removed: string[];
}

/** A declared file as it is at one moment: the SHA-256 of its bytes and its mode, or `null` when absent. */
export interface FileFingerprint {
  path: string;
  sha256: string | null;
  mode?: number;
}

/** A line of a snapshot's append-only journal. */
export type FileSnapshotEvent =
  | {
      type: 'status';
      status: 'committed' | 'failed' | 'kept';
      at: number;
      /**
       * The files as the call left them (`sha256` of the bytes, `null` when absent), recorded with
       * `committed` and `failed`: a rollback refuses when they changed since (`conflict`).
       */
      after?: FileFingerprint[];
    }
  | {
      type: 'rollback-start';
      at: number;
      by?: string;
      /** What the rollback will report, fixed when it starts so that a resumed one reports the same. */
      restored: string[];
      removed: string[];
    }
  | { type: 'step-done'; step: number; at: number }
  | { type: 'rollback-done'; at: number; report: RollbackReport };

/** A snapshot as a thread view lists it (`readThread().fileSnapshots`). */
export interface FileSnapshotSummary {
  id: string;
  callId: string;
  toolName: string;
  status: FileSnapshotStatus;
  paths: string[];
  createdAt: number;
}

/**
 * Where snapshots live. Every write is durable when its promise resolves (fsync'd); a snapshot is
 * written whole or not at all. Implementations throw `FileSnapshotError` (`corrupt`) for a record or
 * journal line that cannot be read, and never change what they cannot read.
 */
export interface FileSnapshotStoreV1 {
  readonly specVersion: 1;
  /**
   * Saves a snapshot and its contents (by `content` name). If one with this id exists, it is kept and
   * returned: a call that runs again keeps the snapshot of before its first run.
   */
  save(record: FileSnapshotRecord, contents: ReadonlyMap<string, Uint8Array>): Promise<FileSnapshotRecord>;
  load(threadId: string, id: string): Promise<FileSnapshotRecord | undefined>;
  readContent(threadId: string, id: string, content: string): Promise<Uint8Array>;
  append(threadId: string, id: string, event: FileSnapshotEvent): Promise<void>;
  readEvents(threadId: string, id: string): Promise<FileSnapshotEvent[]>;
  /** The ids of a thread's snapshots, oldest first. */
  list(threadId: string): Promise<string[]>;
  /**
   * Deletes a snapshot whole: afterwards it is neither listed nor loaded, even if the process dies
   * midway. Removing one that is not there does nothing. Optional: a store without it keeps every
   * snapshot (the retention of `createAgent({ files: { keep } })` then removes nothing).
   */
  remove?(threadId: string, id: string): Promise<void>;
  /**
   * The threads that have snapshots, for a sweep of every thread's retention (`agent.sweepFileSnapshots`).
   * Optional: without it only threads that take new snapshots are checked.
   */
  listThreads?(): Promise<string[]>;
}

export type FileSnapshotStore = FileSnapshotStoreV1;
