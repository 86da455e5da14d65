import type Database from 'better-sqlite3';
import { VersionConflictError } from '../errors/index.js';
import type {
  AuditRecord,
  CommitResult,
  JournalEntry,
  StateStore,
  StoredThread,
  ThreadCommit,
  ThreadSummary,
} from '../spec/index.js';
import { assertValidCommit } from './internal/assert-valid-commit.js';
import { dropNulls } from './internal/drop-nulls.js';
import { openSqliteDatabase } from './internal/open-sqlite-database.js';
import { createSqliteA2ATasks } from './internal/sqlite-a2a-tasks.js';
import { createSqliteThreadDeletion } from './internal/sqlite-delete-thread.js';
import { createSqliteSchedules } from './internal/sqlite-schedules.js';
import {
  type JournalRow,
  prepareSqliteStatements,
  type SqliteStatements,
} from './internal/sqlite-statements.js';
import { StoreError } from './store-error.js';

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * The database file, relative to the working directory; its directory is created. `':memory:'` gives a
   * private in-memory database. Default `.flowstack/flowstack.db`.
   */
  path?: string;
  /**
   * `'normal'` (default): in WAL mode a commit survives a crash of the process, but the last commits
   * before a power loss or OS crash may be rolled back (the file stays consistent). Observations are
   * published after a commit returns, so after a power loss a subscriber may have seen an event whose
   * state was lost. `'full'` syncs the WAL on every commit and keeps "save before emit" across power
   * loss, at the cost of one fsync per commit.
   */
  synchronous?: 'normal' | 'full';
  /** How long a write waits for another connection's lock before failing with `SQLITE_BUSY`. Default 5 s. */
  busyTimeoutMs?: number;
}

/** The SQLite store: a `StateStore` plus the file it uses. */
export interface SqliteStore extends StateStore {
  readonly kind: 'sqlite';
  /** The database path as given (`':memory:'` for an in-memory database). */
  readonly path: string;
}

const kind = 'sqlite';

/**
 * The embedded default `StateStore`: one SQLite file in WAL mode, safe for several processes. A commit
 * is one `BEGIN IMMEDIATE` transaction that checks the version, writes the snapshot and appends the
 * history and observation rows, so its cost does not grow with the thread. better-sqlite3 is
 * synchronous; the methods return promises to match the contract.
 *
 * @example
 * const store = createSqliteStore(); // .flowstack/flowstack.db
 * const thread = await store.loadThread('t1');
 */
export function createSqliteStore(options: SqliteStoreOptions = {}): SqliteStore {
  const path = options.path ?? '.flowstack/flowstack.db';
  const db = openSqliteDatabase({
    path,
    synchronous: options.synchronous ?? 'normal',
    busyTimeoutMs: options.busyTimeoutMs ?? 5_000,
  });
  const statements = prepareSqliteStatements(db);
  let closed = false;

  const commitInTransaction = db.transaction((change: ThreadCommit): CommitResult => {
    const head = statements.selectThreadHead.get(change.threadId);
    const actualVersion = head?.version ?? 0;
    if (change.expectedVersion !== actualVersion) {
      throw new VersionConflictError({
        threadId: change.threadId,
        expectedVersion: change.expectedVersion,
        actualVersion,
      });
    }
    const drafts = change.history ?? [];
    const lastSeq = head?.historySeq ?? 0;
    const params = {
      threadId: change.threadId,
      data: change.data,
      principal: change.principal ?? null,
      now: change.now,
      historySeq: lastSeq + drafts.length,
    };
    if (head) statements.updateThread.run(params);
    else statements.insertThread.run(params);
    const historySeqs = drafts.map((draft, index) => {
      const seq = lastSeq + index + 1;
      statements.insertHistory.run(change.threadId, seq, draft.kind, draft.turnId, draft.data, change.now);
      return seq;
    });
    const observationIds = (change.observations ?? []).map((draft) =>
      Number(
        statements.insertObservation.run(change.threadId, draft.type, draft.data, change.now).lastInsertRowid,
      ),
    );
    return { version: actualVersion + 1, historySeqs, observationIds };
  });

  // No transaction around it: the insert is one statement, and a row is removed only with its thread.
  const startJournal = (entry: JournalEntry): JournalEntry => {
    const inserted = statements.insertJournal.get({
      key: entry.key,
      threadId: entry.threadId,
      callId: entry.callId,
      toolName: entry.toolName,
      argsHash: entry.argsHash,
      idempotent: entry.idempotent ? 1 : 0,
      startedAt: entry.startedAt,
    });
    // Either just inserted, or left by an earlier start with the same key.
    return inserted ? toJournalEntry(inserted) : (readJournalRow(statements, entry.key) as JournalEntry);
  };

  const assertOpen = () => {
    if (closed)
      throw new StoreError({
        reason: 'closed',
        store: kind,
        message: `The SQLite store '${path}' is closed.`,
      });
  };

  return {
    specVersion: 1,
    kind,
    path,

    async loadThread(threadId) {
      assertOpen();
      const row = statements.selectThread.get(threadId);
      return row && dropNulls<StoredThread>(row);
    },

    async commit(change) {
      assertOpen();
      assertValidCommit(kind, change);
      return commitInTransaction.immediate(change);
    },

    async listThreads(options = {}) {
      assertOpen();
      const limit = toLimit(options.limit);
      const rows =
        options.principal === undefined
          ? statements.listThreads.all(limit)
          : statements.listThreadsOfPrincipal.all(options.principal, limit);
      return rows.map((row) => dropNulls<ThreadSummary>(row));
    },

    async readHistory(threadId, options = {}) {
      assertOpen();
      return statements.selectHistory.all(threadId, options.afterSeq ?? 0, toLimit(options.limit));
    },

    async readObservations(threadId, options = {}) {
      assertOpen();
      return statements.selectObservations.all(threadId, options.afterId ?? 0, toLimit(options.limit));
    },

    async acquireLease({ threadId, owner, ttlMs, now }) {
      assertOpen();
      return statements.upsertLease.run({ threadId, owner, expiresAt: now + ttlMs, now }).changes > 0;
    },

    async releaseLease({ threadId, owner }) {
      assertOpen();
      statements.deleteLease.run(threadId, owner);
    },

    async journalStart(entry) {
      assertOpen();
      return startJournal(entry);
    },

    async journalRecord(entry) {
      assertOpen();
      const inserted = statements.insertFinishedJournal.get({
        key: entry.key,
        threadId: entry.threadId,
        callId: entry.callId,
        toolName: entry.toolName,
        argsHash: entry.argsHash,
        idempotent: entry.idempotent ? 1 : 0,
        status: entry.status,
        startedAt: entry.startedAt,
        finishedAt: entry.finishedAt,
        result: entry.result,
      });
      return inserted ? toJournalEntry(inserted) : (readJournalRow(statements, entry.key) as JournalEntry);
    },

    async journalFinish({ key, status, result, finishedAt }) {
      assertOpen();
      if (statements.finishJournal.run({ key, status, result, finishedAt }).changes === 0) {
        throw new StoreError({
          reason: 'not_found',
          store: kind,
          message: `No journal entry '${key}' to finish.`,
        });
      }
    },

    async readJournal(key) {
      assertOpen();
      return readJournalRow(statements, key);
    },

    async listJournal(threadId, options = {}) {
      assertOpen();
      const prefix = options.keyPrefix;
      if (prefix === undefined) return statements.selectJournalOfThread.all(threadId).map(toJournalEntry);
      const end = keyRangeEnd(prefix);
      const rows =
        end === undefined
          ? statements.selectJournalOfThread.all(threadId)
          : statements.selectJournalInKeyRange.all(threadId, prefix, end);
      return rows.filter((row) => row.key.startsWith(prefix)).map(toJournalEntry);
    },

    async appendAudit(record) {
      assertOpen();
      const { lastInsertRowid } = statements.insertAudit.run({
        threadId: record.threadId,
        callId: record.callId,
        toolName: record.toolName,
        capability: record.capability,
        principal: record.principal ?? null,
        inputSummary: record.inputSummary,
        outputSummary: record.outputSummary ?? null,
        risk: record.risk ?? null,
        status: record.status,
        durationMs: record.durationMs ?? null,
        createdAt: record.createdAt,
      });
      return Number(lastInsertRowid);
    },

    async completeAudit(completion) {
      assertOpen();
      if (statements.completeAudit.run(completion).changes === 0) {
        throw new StoreError({
          reason: 'not_found',
          store: kind,
          message: `No audit record ${completion.id} to complete.`,
        });
      }
    },

    async readAudit(options = {}) {
      assertOpen();
      const limit = toLimit(options.limit);
      const rows =
        options.threadId === undefined
          ? statements.selectAudit.all(limit)
          : statements.selectAuditOfThread.all(options.threadId, limit);
      return rows.map((row) => dropNulls<AuditRecord>(row));
    },

    ...createSqliteSchedules(db, assertOpen),
    ...createSqliteThreadDeletion(db, assertOpen),
    ...createSqliteA2ATasks(db, assertOpen),

    async close() {
      if (closed) return;
      closed = true;
      closeDatabase(db);
    },
  };
}

/** SQLite reads a negative limit as "no limit". */
function toLimit(limit: number | undefined): number {
  return limit === undefined ? -1 : Math.max(0, Math.floor(limit));
}

/**
 * The first key after every key that starts with `prefix`, in SQLite's binary (UTF-8) order: the prefix
 * with its last character raised by one. `undefined` when that is not a plain BMP character (the thread is
 * then read and filtered).
 */
function keyRangeEnd(prefix: string): string | undefined {
  const last = prefix.charCodeAt(prefix.length - 1);
  if (Number.isNaN(last) || last >= 0xd7ff) return undefined;
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

function readJournalRow(statements: SqliteStatements, key: string): JournalEntry | undefined {
  const row = statements.selectJournal.get(key);
  return row && toJournalEntry(row);
}

function toJournalEntry({ idempotent, ...row }: JournalRow): JournalEntry {
  return { ...dropNulls<Omit<JournalEntry, 'idempotent'>>(row), idempotent: idempotent === 1 };
}

function closeDatabase(db: Database.Database): void {
  // Lets SQLite refresh its query-planner statistics if they are stale; cheap when nothing changed.
  db.pragma('optimize');
  db.close();
}
