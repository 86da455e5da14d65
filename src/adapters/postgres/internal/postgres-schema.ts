/**
 * The PostgreSQL store's tables, all inside one schema (default `flowstack`). `postgresStoreSchemaVersion`
 * is kept in that schema's `meta` table; bump it (and add an upgrade step in `open-postgres-schema.ts`)
 * whenever these statements change.
 *
 * - `threads.history_seq` is the thread's last history seq, so a commit numbers its rows without counting.
 * - `counters` holds the last observation id. A commit takes the next ids by updating that row, which
 *   locks it until the commit ends; so ids are handed out in commit order (see `commit-thread.ts`).
 * - `journal.position` only breaks ties between entries started in the same millisecond.
 * - `thread_id` sorts byte-wise (`COLLATE "C"`), as in SQLite, so every store lists ties in one order.
 * - Times are milliseconds since the epoch (BIGINT), as the caller passed them.
 */
export const postgresStoreSchemaVersion = 3;

/** The name of the counter row that holds the last observation id. */
export const observationCounter = 'observation_id';

/** `CREATE SCHEMA` and the `meta` table, run before the version is read. */
export function createMetaStatements(schema: string): string {
  return `
CREATE SCHEMA IF NOT EXISTS ${schema};
CREATE TABLE IF NOT EXISTS ${schema}.meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);`;
}

/** The store's tables and indexes, plus the observation counter row. */
export function createTableStatements(schema: string): string {
  return `
CREATE TABLE IF NOT EXISTS ${schema}.threads (
  thread_id TEXT COLLATE "C" PRIMARY KEY,
  version BIGINT NOT NULL,
  data TEXT NOT NULL,
  principal TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  history_seq BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS threads_by_update ON ${schema}.threads (updated_at DESC, thread_id);
CREATE INDEX IF NOT EXISTS threads_by_principal ON ${schema}.threads (principal, updated_at DESC, thread_id);

CREATE TABLE IF NOT EXISTS ${schema}.history (
  thread_id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  kind TEXT NOT NULL,
  turn_id TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (thread_id, seq)
);

CREATE TABLE IF NOT EXISTS ${schema}.counters (
  name TEXT PRIMARY KEY,
  value BIGINT NOT NULL
);
INSERT INTO ${schema}.counters (name, value) VALUES ('${observationCounter}', 0) ON CONFLICT (name) DO NOTHING;

CREATE TABLE IF NOT EXISTS ${schema}.observations (
  id BIGINT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS observations_by_thread ON ${schema}.observations (thread_id, id);

CREATE TABLE IF NOT EXISTS ${schema}.leases (
  thread_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS ${schema}.journal (
  key TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  args_hash TEXT NOT NULL,
  idempotent BOOLEAN NOT NULL,
  status TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  finished_at BIGINT,
  result TEXT,
  position BIGSERIAL NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_by_thread ON ${schema}.journal (thread_id, started_at, position);

CREATE TABLE IF NOT EXISTS ${schema}.audit (
  id BIGSERIAL PRIMARY KEY,
  thread_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  capability TEXT NOT NULL,
  principal TEXT,
  input_summary TEXT NOT NULL,
  output_summary TEXT,
  risk TEXT,
  status TEXT NOT NULL,
  duration_ms BIGINT,
  created_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_by_thread ON ${schema}.audit (thread_id, id);
${createSchedulesStatements(schema)}
${createA2ATasksStatements(schema)}`;
}

/** Version 2: the in-process scheduler's schedules, one JSON entry per id. */
export function createSchedulesStatements(schema: string): string {
  return `
CREATE TABLE IF NOT EXISTS ${schema}.schedules (
  id TEXT COLLATE "C" PRIMARY KEY,
  next_run_at BIGINT NOT NULL,
  data TEXT NOT NULL
);`;
}

/** Version 3: the A2A endpoint's tasks, one JSON task per scope and id. */
export function createA2ATasksStatements(schema: string): string {
  return `
CREATE TABLE IF NOT EXISTS ${schema}.a2a_tasks (
  scope TEXT COLLATE "C" NOT NULL,
  task_id TEXT COLLATE "C" NOT NULL,
  context_id TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (scope, task_id)
);
CREATE INDEX IF NOT EXISTS a2a_tasks_by_update ON ${schema}.a2a_tasks (scope, updated_at DESC, task_id);`;
}
