import type { Pool } from 'pg';
import { ConfigurationError } from '../../errors/index.js';
import type {
  AuditRecord,
  HistoryEntry,
  JournalEntry,
  ObservationRow,
  ScheduleEntry,
  StateStore,
  StoredA2ATask,
  StoredThread,
  ThreadSummary,
} from '../../spec/index.js';
import { assertValidCommit } from '../../store/internal/assert-valid-commit.js';
import { dropNulls } from '../../store/internal/drop-nulls.js';
import type { Row } from '../../store/internal/sqlite-statements.js';
import { StoreError } from '../../store/store-error.js';
import { commitThread } from './internal/commit-thread.js';
import { createPostgresConnection, type PostgresConnection } from './internal/create-postgres-connection.js';
import { deleteThreadRows } from './internal/delete-thread.js';
import { describeAddress } from './internal/describe-address.js';
import { loadPg } from './internal/load-pg.js';
import { openPostgresSchema } from './internal/open-postgres-schema.js';
import { createPostgresStatements, type PostgresStatements } from './internal/postgres-statements.js';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /**
   * Where to connect when no `pool` is given. Default `process.env.DATABASE_URL`, else
   * `postgres://127.0.0.1:5432/postgres`.
   */
  connectionString?: string;
  /**
   * A pool of your own (for TLS, sizing, credentials callbacks …). It wins over `connectionString`, and
   * `close()` leaves it open: whoever created a pool ends it. Give it an `'error'` listener, as pg asks.
   */
  pool?: Pool;
  /** The schema that holds the store's tables; letters, digits and `_`. Default `flowstack`. */
  schema?: string;
  /**
   * Create the schema and tables when they are missing (default `true`). With `false`, a missing schema
   * is a `StoreError`: for roles without the CREATE privilege, once an admin has created it.
   */
  createSchema?: boolean;
  /** How long the store's own pool waits for a new connection before failing. Default 10 s. */
  connectTimeoutMs?: number;
}

/** The PostgreSQL store: a `StateStore` plus where it keeps its data. */
export interface PostgresStore extends StateStore {
  readonly kind: 'postgres';
  /** The schema that holds the tables. */
  readonly schema: string;
  /** `host:port/database`, without credentials. */
  readonly address: string;
  /**
   * Loads `pg`, connects, and creates or checks the schema. Every method does this on first use; call it
   * at start-up to fail fast. Rejects with a `ConfigurationError` when `pg` is not installed, a
   * `PostgresUnavailableError` when the server cannot be reached, and a `StoreError` when the schema is
   * missing (with `createSchema: false`) or newer than this flowstack. A failed attempt is retried by
   * the next call.
   */
  ready(): Promise<void>;
}

interface OpenStore {
  pool: Pool;
  connection: PostgresConnection;
  statements: PostgresStatements;
}

const kind = 'postgres';
const schemaPattern = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * The `StateStore` for several processes or machines (DESIGN.md §7): PostgreSQL holds snapshots, history,
 * observations, leases, the tool journal and the audit log. A commit is one transaction whose cost does
 * not grow with the thread; concurrent commits to one version have exactly one winner, and observation
 * ids increase in commit order store-wide, so replaying with `afterId` never misses an event (see
 * `internal/commit-thread.ts`). The factory does no I/O: `pg` is imported and the schema opened on first
 * use, so `pg` is needed only by those who use this subpath.
 *
 * @example
 * import { createPostgresStore } from 'flowstack/postgres';
 * const store = createPostgresStore({ connectionString: process.env.DATABASE_URL });
 * await store.ready(); // optional: fail at start-up rather than on the first turn
 */
export function createPostgresStore(options: PostgresStoreOptions = {}): PostgresStore {
  const schema = options.schema ?? 'flowstack';
  if (!schemaPattern.test(schema)) {
    throw new ConfigurationError({
      message: `The PostgreSQL store schema '${schema}' is not a plain identifier: use 1 to 63 letters, digits and '_', not starting with a digit.`,
    });
  }
  const quoted = `"${schema}"`;
  const connectionString =
    options.connectionString ?? process.env.DATABASE_URL ?? 'postgres://127.0.0.1:5432/postgres';
  const address = describeAddress(options.pool?.options ?? { connectionString });
  let closed = false;
  let opening: Promise<OpenStore> | undefined;

  const openStore = async (): Promise<OpenStore> => {
    const pg = await loadPg();
    const types = new pg.TypeOverrides();
    // BIGINT columns hold times and ids, all far below 2^53: read them as numbers.
    types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
    const pool =
      options.pool ??
      new pg.Pool({ connectionString, connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000 });
    // An idle connection that drops (a server restart) is removed by the pool and the next call
    // reconnects; without a listener, Node would end the process on the pool's 'error' event.
    if (!options.pool) pool.on('error', () => {});
    const connection = createPostgresConnection({ pool, address, types });
    try {
      await openPostgresSchema(connection, {
        name: schema,
        quoted,
        createSchema: options.createSchema ?? true,
        address,
      });
    } catch (error) {
      if (!options.pool) await pool.end();
      throw error;
    }
    return { pool, connection, statements: createPostgresStatements(quoted) };
  };

  const assertOpen = () => {
    if (closed) {
      throw new StoreError({
        reason: 'closed',
        store: kind,
        message: `The PostgreSQL store (schema '${schema}' at ${address}) is closed.`,
      });
    }
  };

  const open = async (): Promise<OpenStore> => {
    assertOpen();
    opening ??= openStore().catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };

  const query = async <Result>(pick: (statements: PostgresStatements) => string, values: unknown[]) => {
    const { connection, statements } = await open();
    return connection.query<Result>(pick(statements), values);
  };

  const readJournal = async (key: string) => {
    const [row] = await query<Row<JournalEntry>>((s) => s.selectJournal, [key]);
    return row && dropNulls<JournalEntry>(row);
  };
  // An insert that found its key taken: a separate statement sees the row even when its insert committed
  // after ours began.
  const readExistingJournal = async (key: string): Promise<JournalEntry> => {
    const existing = await readJournal(key);
    if (existing) return existing;
    throw new StoreError({
      reason: 'not_found',
      store: kind,
      message: `Journal entry '${key}' was neither inserted nor found.`,
    });
  };

  return {
    specVersion: 1,
    kind,
    schema,
    address,

    async ready() {
      await open();
    },

    async loadThread(threadId) {
      const [row] = await query<Row<StoredThread>>((s) => s.selectThread, [threadId]);
      return row && dropNulls<StoredThread>(row);
    },

    async commit(change) {
      assertOpen();
      assertValidCommit(kind, change);
      const { connection, statements } = await open();
      return connection.transaction((inTransaction) => commitThread(inTransaction, statements, change));
    },

    async listThreads(options = {}) {
      const limit = toLimit(options.limit);
      const rows =
        options.principal === undefined
          ? await query<Row<ThreadSummary>>((s) => s.listThreads, [limit])
          : await query<Row<ThreadSummary>>((s) => s.listThreadsOfPrincipal, [options.principal, limit]);
      return rows.map((row) => dropNulls<ThreadSummary>(row));
    },

    async readHistory(threadId, options = {}) {
      const after = Math.floor(options.afterSeq ?? 0);
      return query<HistoryEntry>((s) => s.selectHistory, [threadId, after, toLimit(options.limit)]);
    },

    async readObservations(threadId, options = {}) {
      const after = Math.floor(options.afterId ?? 0);
      return query<ObservationRow>((s) => s.selectObservations, [threadId, after, toLimit(options.limit)]);
    },

    async acquireLease({ threadId, owner, ttlMs, now }) {
      const held = await query((s) => s.upsertLease, [threadId, owner, now + ttlMs, now]);
      return held.length > 0;
    },

    async saveSchedule(entry) {
      await query((s) => s.upsertSchedule, [entry.id, entry.nextRunAt, JSON.stringify(entry)]);
    },

    async deleteSchedule(id) {
      return (await query((s) => s.deleteSchedule, [id])).length > 0;
    },

    async listSchedules() {
      const rows = await query<{ data: string }>((s) => s.selectSchedules, []);
      return rows.map((row) => JSON.parse(row.data) as ScheduleEntry);
    },

    async deleteThread(threadId) {
      assertOpen();
      const { connection, statements } = await open();
      return connection.transaction((inTransaction) => deleteThreadRows(inTransaction, statements, threadId));
    },

    async saveA2ATask(task) {
      await query(
        (s) => s.upsertA2ATask,
        [task.scope, task.taskId, task.contextId, task.updatedAt, task.data],
      );
    },

    async loadA2ATask({ scope, taskId }) {
      const [row] = await query<A2ATaskRow>((s) => s.selectA2ATask, [scope, taskId]);
      return row && toA2ATask(row);
    },

    async listA2ATasks({ scope, contextId }) {
      const rows = await query<A2ATaskRow>((s) => s.selectA2ATasks, [scope, contextId ?? null]);
      return rows.map(toA2ATask);
    },

    async releaseLease({ threadId, owner }) {
      await query((s) => s.deleteLease, [threadId, owner]);
    },

    async journalStart(entry) {
      const [inserted] = await query<Row<JournalEntry>>(
        (s) => s.insertJournal,
        [
          entry.key,
          entry.threadId,
          entry.callId,
          entry.toolName,
          entry.argsHash,
          entry.idempotent,
          entry.startedAt,
        ],
      );
      return inserted ? dropNulls<JournalEntry>(inserted) : readExistingJournal(entry.key);
    },

    async journalRecord(entry) {
      const [inserted] = await query<Row<JournalEntry>>(
        (s) => s.insertFinishedJournal,
        [
          entry.key,
          entry.threadId,
          entry.callId,
          entry.toolName,
          entry.argsHash,
          entry.idempotent,
          entry.status,
          entry.startedAt,
          entry.finishedAt,
          entry.result,
        ],
      );
      return inserted ? dropNulls<JournalEntry>(inserted) : readExistingJournal(entry.key);
    },

    async journalFinish({ key, status, result, finishedAt }) {
      const found = await query((s) => s.finishJournal, [key, status, result, finishedAt]);
      if (found.length === 0) {
        throw new StoreError({
          reason: 'not_found',
          store: kind,
          message: `No journal entry '${key}' to finish.`,
        });
      }
    },

    readJournal,

    async listJournal(threadId, options = {}) {
      const prefix = options.keyPrefix;
      const rows =
        prefix === undefined
          ? await query<Row<JournalEntry>>((s) => s.selectJournalOfThread, [threadId])
          : await query<Row<JournalEntry>>((s) => s.selectJournalWithPrefix, [threadId, prefix]);
      return rows.map((row) => dropNulls<JournalEntry>(row));
    },

    async appendAudit(record) {
      const [row] = await query<{ id: number }>(
        (s) => s.insertAudit,
        [
          record.threadId,
          record.callId,
          record.toolName,
          record.capability,
          record.principal ?? null,
          record.inputSummary,
          record.outputSummary ?? null,
          record.risk ?? null,
          record.status,
          record.durationMs ?? null,
          record.createdAt,
        ],
      );
      // INSERT … RETURNING without ON CONFLICT returns its one row or throws.
      return (row as { id: number }).id;
    },

    async completeAudit({ id, status, outputSummary, durationMs }) {
      const found = await query((s) => s.completeAudit, [id, status, outputSummary, durationMs]);
      if (found.length === 0) {
        throw new StoreError({
          reason: 'not_found',
          store: kind,
          message: `No audit record ${id} to complete.`,
        });
      }
    },

    async readAudit(options = {}) {
      const limit = toLimit(options.limit);
      const rows =
        options.threadId === undefined
          ? await query<Row<AuditRecord>>((s) => s.selectAudit, [limit])
          : await query<Row<AuditRecord>>((s) => s.selectAuditOfThread, [options.threadId, limit]);
      return rows.map((row) => dropNulls<AuditRecord>(row));
    },

    async close() {
      if (closed) return;
      closed = true;
      const pending = opening;
      opening = undefined;
      if (options.pool || !pending) return;
      // A store that never opened has no pool; one whose opening failed has ended it already.
      const opened = await pending.catch(() => undefined);
      await opened?.pool.end();
    },
  };
}

/** `NULL` is "no limit" in PostgreSQL. */
function toLimit(limit: number | undefined): number | null {
  if (limit === undefined || limit === Number.POSITIVE_INFINITY) return null;
  return Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
}

interface A2ATaskRow {
  scope: string;
  task_id: string;
  context_id: string;
  updated_at: number | string;
  data: string;
}

function toA2ATask(row: A2ATaskRow): StoredA2ATask {
  return {
    scope: row.scope,
    taskId: row.task_id,
    contextId: row.context_id,
    updatedAt: Number(row.updated_at),
    data: row.data,
  };
}
