/**
 * The writes flowstack's SQLite store makes for one turn of K tool steps (`src/store/create-sqlite-store.ts`
 * and `src/store/internal/sqlite-statements.ts`), copied as SQL so that any driver with `exec` and
 * `prepare` can run them: the lease taken and the thread loaded; per step, the model's answer and the tool's
 * result each journaled as one autocommitted `INSERT … ON CONFLICT DO NOTHING RETURNING` (its own WAL
 * append); at the end one `BEGIN IMMEDIATE` transaction that writes the snapshot and appends the history
 * and observation rows; the lease let go. The database is in WAL mode with `synchronous = NORMAL`, the
 * store's default. The row sizes are those of the bench's durable scenario (a 7.5 KB snapshot).
 */

/** What both drivers offer, in the calls the pattern makes: the same names in better-sqlite3 and node:sqlite. */
export interface SqlDriver {
  exec(sql: string): unknown;
  prepare(sql: string): SqlStatement;
  close(): unknown;
}

export interface SqlStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
}

const schema = `
CREATE TABLE IF NOT EXISTS threads (
  thread_id TEXT PRIMARY KEY, version INTEGER NOT NULL, data TEXT NOT NULL, principal TEXT,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, history_seq INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS threads_by_update ON threads (updated_at DESC, thread_id);
CREATE INDEX IF NOT EXISTS threads_by_principal ON threads (principal, updated_at DESC, thread_id);
CREATE TABLE IF NOT EXISTS history (
  thread_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, turn_id TEXT NOT NULL, data TEXT NOT NULL,
  created_at INTEGER NOT NULL, PRIMARY KEY (thread_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS observations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS observations_by_thread ON observations (thread_id, id);
CREATE TABLE IF NOT EXISTS leases (thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS journal (
  key TEXT PRIMARY KEY, thread_id TEXT NOT NULL, call_id TEXT NOT NULL, tool_name TEXT NOT NULL,
  args_hash TEXT NOT NULL, idempotent INTEGER NOT NULL, status TEXT NOT NULL, started_at INTEGER NOT NULL,
  finished_at INTEGER, result TEXT
);
CREATE INDEX IF NOT EXISTS journal_by_thread ON journal (thread_id, started_at);
`;

const journalColumns =
  'key, thread_id AS threadId, call_id AS callId, tool_name AS toolName, args_hash AS argsHash, idempotent, status, started_at AS startedAt, finished_at AS finishedAt, result';

/** Sets the store's pragmas, creates its tables and prepares its statements; returns one turn's writes. */
export function prepareDurableTurn(db: SqlDriver): (threadId: string, steps: number) => void {
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(schema);
  const upsertLease = db.prepare(
    `INSERT INTO leases (thread_id, owner, expires_at) VALUES (?, ?, ?)
     ON CONFLICT (thread_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
     WHERE leases.owner = excluded.owner OR leases.expires_at <= ?`,
  );
  const selectThread = db.prepare(
    'SELECT thread_id AS threadId, version, principal, created_at AS createdAt, updated_at AS updatedAt, data FROM threads WHERE thread_id = ?',
  );
  const insertFinishedJournal = db.prepare(
    `INSERT INTO journal (key, thread_id, call_id, tool_name, args_hash, idempotent, status, started_at, finished_at, result)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING RETURNING ${journalColumns}`,
  );
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const selectThreadHead = db.prepare(
    'SELECT version, history_seq AS historySeq FROM threads WHERE thread_id = ?',
  );
  const insertThread = db.prepare(
    `INSERT INTO threads (thread_id, version, data, principal, created_at, updated_at, history_seq)
     VALUES (?, 1, ?, NULL, ?, ?, ?)`,
  );
  const insertHistory = db.prepare(
    'INSERT INTO history (thread_id, seq, kind, turn_id, data, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertObservation = db.prepare(
    'INSERT INTO observations (thread_id, type, data, created_at) VALUES (?, ?, ?, ?)',
  );
  const deleteLease = db.prepare('DELETE FROM leases WHERE thread_id = ? AND owner = ?');
  const argsHash = 'a'.repeat(64);
  const answer = JSON.stringify({
    toolCalls: [{ toolName: 'add', input: { a: 1, b: 2 } }],
    pad: 'x'.repeat(220),
  });
  const result = JSON.stringify({ output: { sum: 3 }, pad: 'y'.repeat(120) });
  const snapshot = JSON.stringify({ snapshot: 'z'.repeat(7_500) });
  const historyRow = JSON.stringify({ role: 'tool', pad: 'h'.repeat(260) });

  return (threadId, steps) => {
    const now = Date.now();
    upsertLease.run(threadId, 'worker', now + 300_000, now);
    selectThread.get(threadId);
    for (let step = 0; step <= steps; step++) {
      const turnKey = `${threadId}:turn-1`;
      insertFinishedJournal.get(
        `${turnKey}:model:${step}`,
        threadId,
        `model-${step}`,
        '$model',
        argsHash,
        1,
        'success',
        now,
        now,
        answer,
      );
      if (step < steps)
        insertFinishedJournal.get(
          `${turnKey}:call-${step}`,
          threadId,
          `call-${step}`,
          'add',
          argsHash,
          1,
          'success',
          now,
          now,
          result,
        );
    }
    begin.run();
    try {
      selectThreadHead.get(threadId);
      const rows = 2 * steps + 2;
      insertThread.run(threadId, snapshot, now, now, rows);
      for (let seq = 1; seq <= rows; seq++)
        insertHistory.run(threadId, seq, 'message', 'turn-1', historyRow, now);
      for (let index = 0; index < 2 * steps; index++)
        insertObservation.run(threadId, 'tool-call', historyRow, now);
      commit.run();
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
    deleteLease.run(threadId, 'worker');
  };
}
