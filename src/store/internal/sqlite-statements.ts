import type Database from 'better-sqlite3';
import type {
  AuditRecord,
  HistoryEntry,
  JournalEntry,
  ObservationRow,
  ThreadSummary,
} from '../../spec/index.js';

type OptionalKeys<T> = { [K in keyof T]-?: T extends Record<K, T[K]> ? never : K }[keyof T];

/** A row as SQLite returns it: optional fields come back as `null`. */
export type Row<T> = { [K in keyof T]-?: K extends OptionalKeys<T> ? Exclude<T[K], undefined> | null : T[K] };

/** SQLite has no booleans: `idempotent` is stored as 0 or 1. */
export type JournalRow = Omit<Row<JournalEntry>, 'idempotent'> & { idempotent: 0 | 1 };

export interface ThreadParams {
  threadId: string;
  data: string;
  principal: string | null;
  now: number;
  historySeq: number;
}

const threadColumns =
  'thread_id AS threadId, version, principal, created_at AS createdAt, updated_at AS updatedAt';
const journalColumns = `key, thread_id AS threadId, call_id AS callId, tool_name AS toolName, args_hash AS argsHash,
  idempotent, status, started_at AS startedAt, finished_at AS finishedAt, result`;
const auditColumns = `id, thread_id AS threadId, call_id AS callId, tool_name AS toolName, capability, principal,
  input_summary AS inputSummary, output_summary AS outputSummary, risk, status, duration_ms AS durationMs,
  created_at AS createdAt`;

/** Every statement the SQLite store runs, prepared once per connection. */
export interface SqliteStatements {
  selectThread: Database.Statement<[string], Row<ThreadSummary> & { data: string }>;
  selectThreadHead: Database.Statement<[string], { version: number; historySeq: number }>;
  insertThread: Database.Statement<ThreadParams>;
  updateThread: Database.Statement<ThreadParams>;
  insertHistory: Database.Statement<[string, number, string, string, string, number]>;
  insertObservation: Database.Statement<[string, string, string, number]>;
  listThreads: Database.Statement<[number], Row<ThreadSummary>>;
  listThreadsOfPrincipal: Database.Statement<[string, number], Row<ThreadSummary>>;
  selectHistory: Database.Statement<[string, number, number], HistoryEntry>;
  selectObservations: Database.Statement<[string, number, number], ObservationRow>;
  upsertLease: Database.Statement<{ threadId: string; owner: string; expiresAt: number; now: number }>;
  deleteLease: Database.Statement<[string, string]>;
  insertJournal: Database.Statement<Omit<JournalRow, 'status' | 'finishedAt' | 'result'>, JournalRow>;
  insertFinishedJournal: Database.Statement<JournalRow, JournalRow>;
  selectJournal: Database.Statement<[string], JournalRow>;
  finishJournal: Database.Statement<{ key: string; status: string; result: string; finishedAt: number }>;
  selectJournalOfThread: Database.Statement<[string], JournalRow>;
  selectJournalInKeyRange: Database.Statement<[string, string, string], JournalRow>;
  insertAudit: Database.Statement<Row<Omit<AuditRecord, 'id'>>>;
  completeAudit: Database.Statement<{
    id: number;
    status: string;
    outputSummary: string;
    durationMs: number;
  }>;
  selectAudit: Database.Statement<[number], Row<AuditRecord>>;
  selectAuditOfThread: Database.Statement<[string, number], Row<AuditRecord>>;
}

/**
 * Prepares every statement the SQLite store runs, once per connection. Columns are aliased to the
 * contract's field names so that rows need no mapping beyond dropping `null`s. A `limit` of -1 means
 * no limit.
 */
export function prepareSqliteStatements(db: Database.Database): SqliteStatements {
  return {
    selectThread: db.prepare<[string], Row<ThreadSummary> & { data: string }>(
      `SELECT ${threadColumns}, data FROM threads WHERE thread_id = ?`,
    ),
    selectThreadHead: db.prepare<[string], { version: number; historySeq: number }>(
      'SELECT version, history_seq AS historySeq FROM threads WHERE thread_id = ?',
    ),
    insertThread: db.prepare<ThreadParams>(
      `INSERT INTO threads (thread_id, version, data, principal, created_at, updated_at, history_seq)
       VALUES (@threadId, 1, @data, @principal, @now, @now, @historySeq)`,
    ),
    updateThread: db.prepare<ThreadParams>(
      `UPDATE threads SET version = version + 1, data = @data, principal = coalesce(@principal, principal),
       updated_at = @now, history_seq = @historySeq WHERE thread_id = @threadId`,
    ),
    insertHistory: db.prepare<[string, number, string, string, string, number]>(
      'INSERT INTO history (thread_id, seq, kind, turn_id, data, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    insertObservation: db.prepare<[string, string, string, number]>(
      'INSERT INTO observations (thread_id, type, data, created_at) VALUES (?, ?, ?, ?)',
    ),
    listThreads: db.prepare<[number], Row<ThreadSummary>>(
      `SELECT ${threadColumns} FROM threads ORDER BY updated_at DESC, thread_id LIMIT ?`,
    ),
    listThreadsOfPrincipal: db.prepare<[string, number], Row<ThreadSummary>>(
      `SELECT ${threadColumns} FROM threads WHERE principal = ? ORDER BY updated_at DESC, thread_id LIMIT ?`,
    ),
    selectHistory: db.prepare<[string, number, number], HistoryEntry>(
      `SELECT thread_id AS threadId, seq, kind, turn_id AS turnId, data, created_at AS createdAt
       FROM history WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    selectObservations: db.prepare<[string, number, number], ObservationRow>(
      `SELECT id, thread_id AS threadId, type, data, created_at AS createdAt
       FROM observations WHERE thread_id = ? AND id > ? ORDER BY id LIMIT ?`,
    ),
    // One statement, so taking a lease is atomic across connections: the update only happens when the
    // lease is expired or already ours, and `changes` says whether we hold it.
    upsertLease: db.prepare<{ threadId: string; owner: string; expiresAt: number; now: number }>(
      `INSERT INTO leases (thread_id, owner, expires_at) VALUES (@threadId, @owner, @expiresAt)
       ON CONFLICT (thread_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE leases.owner = excluded.owner OR leases.expires_at <= @now`,
    ),
    deleteLease: db.prepare<[string, string]>('DELETE FROM leases WHERE thread_id = ? AND owner = ?'),
    // One statement, atomic on its own: the new row comes back; no row means the key was there already.
    insertJournal: db.prepare<Omit<JournalRow, 'status' | 'finishedAt' | 'result'>, JournalRow>(
      `INSERT INTO journal (key, thread_id, call_id, tool_name, args_hash, idempotent, status, started_at)
       VALUES (@key, @threadId, @callId, @toolName, @argsHash, @idempotent, 'started', @startedAt)
       ON CONFLICT (key) DO NOTHING
       RETURNING ${journalColumns}`,
    ),
    insertFinishedJournal: db.prepare<JournalRow, JournalRow>(
      `INSERT INTO journal (key, thread_id, call_id, tool_name, args_hash, idempotent, status, started_at,
         finished_at, result)
       VALUES (@key, @threadId, @callId, @toolName, @argsHash, @idempotent, @status, @startedAt,
         @finishedAt, @result)
       ON CONFLICT (key) DO NOTHING
       RETURNING ${journalColumns}`,
    ),
    selectJournal: db.prepare<[string], JournalRow>(`SELECT ${journalColumns} FROM journal WHERE key = ?`),
    finishJournal: db.prepare<{ key: string; status: string; result: string; finishedAt: number }>(
      'UPDATE journal SET status = @status, result = @result, finished_at = @finishedAt WHERE key = @key',
    ),
    selectJournalOfThread: db.prepare<[string], JournalRow>(
      `SELECT ${journalColumns} FROM journal WHERE thread_id = ? ORDER BY started_at, rowid`,
    ),
    // Keys in [from, to): a range of the primary key (`+thread_id` keeps the planner off the thread index).
    selectJournalInKeyRange: db.prepare<[string, string, string], JournalRow>(
      `SELECT ${journalColumns} FROM journal WHERE +thread_id = ? AND key >= ? AND key < ? ORDER BY started_at, rowid`,
    ),
    insertAudit: db.prepare<Row<Omit<AuditRecord, 'id'>>>(
      `INSERT INTO audit (thread_id, call_id, tool_name, capability, principal, input_summary, output_summary,
         risk, status, duration_ms, created_at)
       VALUES (@threadId, @callId, @toolName, @capability, @principal, @inputSummary, @outputSummary,
         @risk, @status, @durationMs, @createdAt)`,
    ),
    completeAudit: db.prepare<{ id: number; status: string; outputSummary: string; durationMs: number }>(
      `UPDATE audit SET status = @status, output_summary = @outputSummary, duration_ms = @durationMs
       WHERE id = @id`,
    ),
    selectAudit: db.prepare<[number], Row<AuditRecord>>(
      `SELECT ${auditColumns} FROM audit ORDER BY id DESC LIMIT ?`,
    ),
    selectAuditOfThread: db.prepare<[string, number], Row<AuditRecord>>(
      `SELECT ${auditColumns} FROM audit WHERE thread_id = ? ORDER BY id DESC LIMIT ?`,
    ),
  };
}
