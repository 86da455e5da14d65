import { observationCounter } from './postgres-schema.js';

const threadColumns =
  'thread_id AS "threadId", version, principal, created_at AS "createdAt", updated_at AS "updatedAt"';
const journalColumns = `key, thread_id AS "threadId", call_id AS "callId", tool_name AS "toolName",
  args_hash AS "argsHash", idempotent, status, started_at AS "startedAt", finished_at AS "finishedAt", result`;
const auditColumns = `id, thread_id AS "threadId", call_id AS "callId", tool_name AS "toolName", capability,
  principal, input_summary AS "inputSummary", output_summary AS "outputSummary", risk, status,
  duration_ms AS "durationMs", created_at AS "createdAt"`;

/**
 * Every statement the PostgreSQL store runs, for one (already quoted) schema. Columns are aliased to the
 * contract's field names so that rows need no mapping beyond dropping `null`s. Values are always `$n`
 * parameters; the schema name is the only text put into SQL, and it is checked and quoted first. A `LIMIT`
 * of `NULL` means no limit.
 */
export function createPostgresStatements(schema: string) {
  return {
    selectThread: `SELECT ${threadColumns}, data FROM ${schema}.threads WHERE thread_id = $1`,
    selectThreadVersion: `SELECT version FROM ${schema}.threads WHERE thread_id = $1`,
    // $1 thread, $2 data, $3 principal, $4 now, $5 number of history rows.
    insertThread: `INSERT INTO ${schema}.threads
        (thread_id, version, data, principal, created_at, updated_at, history_seq)
      VALUES ($1, 1, $2, $3, $4, $4, $5)
      ON CONFLICT (thread_id) DO NOTHING
      RETURNING version, 0::bigint AS "lastSeq"`,
    // $1 thread, $2 expected version, $3 data, $4 principal, $5 now, $6 number of history rows. Under READ
    // COMMITTED a concurrent writer waits for the row lock, then re-checks `version` on the new row: the
    // one that committed first wins and every other gets no row back.
    updateThread: `UPDATE ${schema}.threads
      SET version = version + 1, data = $3, principal = coalesce($4, principal), updated_at = $5,
        history_seq = history_seq + $6::bigint
      WHERE thread_id = $1 AND version = $2
      RETURNING version, history_seq - $6::bigint AS "lastSeq"`,
    // $1 thread, $2 last seq before this commit, $3 kinds, $4 turn ids, $5 data, $6 now.
    insertHistory: `INSERT INTO ${schema}.history (thread_id, seq, kind, turn_id, data, created_at)
      SELECT $1, $2::bigint + draft.ordinality, draft.kind, draft.turn_id, draft.data, $6
      FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS draft(kind, turn_id, data, ordinality)`,
    // $1 thread, $2 number of rows, $3 types, $4 data, $5 now. Updating the counter row locks it until the
    // transaction ends, so the next commit with observations waits and gets higher ids.
    insertObservations: `WITH counter AS (
        UPDATE ${schema}.counters SET value = value + $2::bigint WHERE name = '${observationCounter}'
        RETURNING value - $2::bigint AS base
      )
      INSERT INTO ${schema}.observations (id, thread_id, type, data, created_at)
      SELECT counter.base + draft.ordinality, $1, draft.type, draft.data, $5
      FROM counter, unnest($3::text[], $4::text[]) WITH ORDINALITY AS draft(type, data, ordinality)
      RETURNING id`,
    listThreads: `SELECT ${threadColumns} FROM ${schema}.threads
      ORDER BY updated_at DESC, thread_id LIMIT $1`,
    listThreadsOfPrincipal: `SELECT ${threadColumns} FROM ${schema}.threads WHERE principal = $1
      ORDER BY updated_at DESC, thread_id LIMIT $2`,
    selectHistory: `SELECT thread_id AS "threadId", seq, kind, turn_id AS "turnId", data, created_at AS "createdAt"
      FROM ${schema}.history WHERE thread_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    selectObservations: `SELECT id, thread_id AS "threadId", type, data, created_at AS "createdAt"
      FROM ${schema}.observations WHERE thread_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
    // One statement, so taking a lease is atomic across processes: the conflicting row is locked and the
    // update only happens when the lease is expired or already ours; a returned row means we hold it.
    // $1 thread, $2 owner, $3 expires at, $4 now.
    upsertLease: `INSERT INTO ${schema}.leases AS lease (thread_id, owner, expires_at) VALUES ($1, $2, $3)
      ON CONFLICT (thread_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
      WHERE lease.owner = excluded.owner OR lease.expires_at <= $4
      RETURNING 1 AS held`,
    deleteLease: `DELETE FROM ${schema}.leases WHERE thread_id = $1 AND owner = $2`,
    insertJournal: `INSERT INTO ${schema}.journal
        (key, thread_id, call_id, tool_name, args_hash, idempotent, status, started_at)
      VALUES ($1, $2, $3, $4, $5, $6, 'started', $7)
      ON CONFLICT (key) DO NOTHING
      RETURNING ${journalColumns}`,
    insertFinishedJournal: `INSERT INTO ${schema}.journal
        (key, thread_id, call_id, tool_name, args_hash, idempotent, status, started_at, finished_at, result)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
      ON CONFLICT (key) DO NOTHING
      RETURNING ${journalColumns}`,
    selectJournal: `SELECT ${journalColumns} FROM ${schema}.journal WHERE key = $1`,
    finishJournal: `UPDATE ${schema}.journal SET status = $2, result = $3, finished_at = $4 WHERE key = $1
      RETURNING 1 AS found`,
    selectJournalOfThread: `SELECT ${journalColumns} FROM ${schema}.journal WHERE thread_id = $1
      ORDER BY started_at, position`,
    // $1 thread, $2 key prefix: one turn's entries, filtered in the server.
    selectJournalWithPrefix: `SELECT ${journalColumns} FROM ${schema}.journal
      WHERE thread_id = $1 AND starts_with(key, $2) ORDER BY started_at, position`,
    insertAudit: `INSERT INTO ${schema}.audit (thread_id, call_id, tool_name, capability, principal,
        input_summary, output_summary, risk, status, duration_ms, created_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
      RETURNING id`,
    completeAudit: `UPDATE ${schema}.audit SET status = $2, output_summary = $3, duration_ms = $4 WHERE id = $1
      RETURNING 1 AS found`,
    selectAudit: `SELECT ${auditColumns} FROM ${schema}.audit ORDER BY id DESC LIMIT $1`,
    selectAuditOfThread: `SELECT ${auditColumns} FROM ${schema}.audit WHERE thread_id = $1
      ORDER BY id DESC LIMIT $2`,
    // $1 id, $2 next run, $3 the entry as JSON.
    upsertSchedule: `INSERT INTO ${schema}.schedules (id, next_run_at, data) VALUES ($1, $2, $3)
      ON CONFLICT (id) DO UPDATE SET next_run_at = excluded.next_run_at, data = excluded.data`,
    deleteSchedule: `DELETE FROM ${schema}.schedules WHERE id = $1 RETURNING 1 AS found`,
    selectSchedules: `SELECT data FROM ${schema}.schedules ORDER BY next_run_at, id`,
    // Deleting a thread (docs/decisions/0076), each with $1 the thread id, in one transaction.
    deleteThread: `DELETE FROM ${schema}.threads WHERE thread_id = $1 RETURNING 1 AS found`,
    deleteHistoryOfThread: `DELETE FROM ${schema}.history WHERE thread_id = $1`,
    deleteObservationsOfThread: `DELETE FROM ${schema}.observations WHERE thread_id = $1`,
    deleteLeaseOfThread: `DELETE FROM ${schema}.leases WHERE thread_id = $1`,
    deleteJournalOfThread: `DELETE FROM ${schema}.journal WHERE thread_id = $1`,
    deleteA2ATasksOfThread: `DELETE FROM ${schema}.a2a_tasks WHERE context_id = $1`,
    deleteSchedulesOfThread: `DELETE FROM ${schema}.schedules WHERE (data::jsonb ->> 'threadId') = $1`,
    // $1 thread, $2 the mark that replaces the summaries.
    markAuditOfThread: `UPDATE ${schema}.audit SET input_summary = $2,
      output_summary = CASE WHEN output_summary IS NULL THEN NULL ELSE $2 END WHERE thread_id = $1`,
    upsertA2ATask: `INSERT INTO ${schema}.a2a_tasks (scope, task_id, context_id, updated_at, data)
      VALUES ($1, $2, $3, $4, $5)
      ON CONFLICT (scope, task_id) DO UPDATE SET
        context_id = excluded.context_id, updated_at = excluded.updated_at, data = excluded.data`,
    selectA2ATask: `SELECT * FROM ${schema}.a2a_tasks WHERE scope = $1 AND task_id = $2`,
    selectA2ATasks: `SELECT * FROM ${schema}.a2a_tasks WHERE scope = $1 AND ($2::text IS NULL OR context_id = $2)
      ORDER BY updated_at DESC, task_id DESC`,
  };
}

/** The statements of one schema. */
export type PostgresStatements = ReturnType<typeof createPostgresStatements>;
