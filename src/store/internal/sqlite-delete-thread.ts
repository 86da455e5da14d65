/**
 * Deleting a thread from the SQLite store (docs/decisions/0076): every row of the thread goes in one
 * transaction, the audit rows keep only who ran what when. The connection runs with `secure_delete` from
 * the start, so the space every delete and update frees is overwritten with zeros — the snapshot an update
 * replaced leaves nothing behind either — and the write-ahead log is checkpointed and truncated
 * afterwards, so the file and its `-wal` no longer hold the thread's bytes. A checkpoint that another
 * connection's open read holds back finishes at a later checkpoint.
 */
import type Database from 'better-sqlite3';
import { deletedThreadMark, type StateStore } from '../../spec/index.js';

export function createSqliteThreadDeletion(
  db: Database.Database,
  assertOpen: () => void,
): Required<Pick<StateStore, 'deleteThread'>> {
  db.pragma('secure_delete = ON');
  const rowsOfThread = [
    db.prepare<[string]>('DELETE FROM threads WHERE thread_id = ?'),
    db.prepare<[string]>('DELETE FROM history WHERE thread_id = ?'),
    db.prepare<[string]>('DELETE FROM observations WHERE thread_id = ?'),
    db.prepare<[string]>('DELETE FROM leases WHERE thread_id = ?'),
    db.prepare<[string]>('DELETE FROM journal WHERE thread_id = ?'),
    db.prepare<[string]>("DELETE FROM schedules WHERE json_extract(data, '$.threadId') = ?"),
    // An A2A task's context is its thread.
    db.prepare<[string]>('DELETE FROM a2a_tasks WHERE context_id = ?'),
  ];
  const markAudit = db.prepare<[string, string, string]>(
    `UPDATE audit SET input_summary = ?, output_summary = CASE WHEN output_summary IS NULL THEN NULL ELSE ? END
     WHERE thread_id = ?`,
  );
  const deleteInTransaction = db.transaction((threadId: string): boolean => {
    const [threads, ...rest] = rowsOfThread;
    const existed = (threads?.run(threadId).changes ?? 0) > 0;
    for (const statement of rest) statement.run(threadId);
    markAudit.run(deletedThreadMark, deletedThreadMark, threadId);
    return existed;
  });
  return {
    async deleteThread(threadId: string) {
      assertOpen();
      const existed = deleteInTransaction.immediate(threadId);
      db.pragma('wal_checkpoint(TRUNCATE)');
      return existed;
    },
  };
}
