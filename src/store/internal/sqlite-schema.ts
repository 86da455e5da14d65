/**
 * The SQLite store's tables. `sqliteStoreSchemaVersion` is kept in the `meta` table; bump it (and add an
 * upgrade step in `open-sqlite-database.ts`) whenever these statements change.
 *
 * `threads.history_seq` is the thread's last history seq, so that a commit numbers its rows without
 * counting the history. Times are milliseconds since the epoch, as the caller passed them.
 */
export const sqliteStoreSchemaVersion = 3;

export const createMetaTable = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
)`;

/** Version 2: the in-process scheduler's schedules, one JSON entry per id. */
export const createSchedulesTable = `
CREATE TABLE IF NOT EXISTS schedules (
  id TEXT PRIMARY KEY,
  next_run_at INTEGER NOT NULL,
  data TEXT NOT NULL
);
`;

/** Version 3: the A2A endpoint's tasks, one JSON task per scope and id. */
export const createA2ATasksTable = `
CREATE TABLE IF NOT EXISTS a2a_tasks (
  scope TEXT NOT NULL,
  task_id TEXT NOT NULL,
  context_id TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (scope, task_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS a2a_tasks_by_update ON a2a_tasks (scope, updated_at DESC, task_id);
`;

export const createTables = `
CREATE TABLE IF NOT EXISTS threads (
  thread_id TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  data TEXT NOT NULL,
  principal TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  history_seq INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS threads_by_update ON threads (updated_at DESC, thread_id);
CREATE INDEX IF NOT EXISTS threads_by_principal ON threads (principal, updated_at DESC, thread_id);

CREATE TABLE IF NOT EXISTS history (
  thread_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  kind TEXT NOT NULL,
  turn_id TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (thread_id, seq)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS observations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  thread_id TEXT NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS observations_by_thread ON observations (thread_id, id);

CREATE TABLE IF NOT EXISTS leases (
  thread_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS journal (
  key TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  args_hash TEXT NOT NULL,
  idempotent INTEGER NOT NULL,
  status TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  finished_at INTEGER,
  result TEXT
);
CREATE INDEX IF NOT EXISTS journal_by_thread ON journal (thread_id, started_at);

CREATE TABLE IF NOT EXISTS audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  thread_id TEXT NOT NULL,
  call_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  capability TEXT NOT NULL,
  principal TEXT,
  input_summary TEXT NOT NULL,
  output_summary TEXT,
  risk TEXT,
  status TEXT NOT NULL,
  duration_ms INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_by_thread ON audit (thread_id, id);
${createSchedulesTable}
${createA2ATasksTable}`;
