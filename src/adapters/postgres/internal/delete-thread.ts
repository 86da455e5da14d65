import { deletedThreadMark } from '../../../spec/index.js';
import type { Query } from './create-postgres-connection.js';
import type { PostgresStatements } from './postgres-statements.js';

/**
 * Deletes a thread's rows inside a transaction: the snapshot, history, observations, lease, journal and
 * schedules that send to it; its audit rows keep who ran what when, their summaries replaced by the
 * mark (docs/decisions/0076). The deleted rows' bytes stay in the table files until (auto)vacuum reuses
 * the space, as for any deleted row in PostgreSQL. Resolves with whether the thread was there.
 */
export async function deleteThreadRows(
  query: Query,
  statements: PostgresStatements,
  threadId: string,
): Promise<boolean> {
  const found = await query(statements.deleteThread, [threadId]);
  for (const statement of [
    statements.deleteHistoryOfThread,
    statements.deleteObservationsOfThread,
    statements.deleteLeaseOfThread,
    statements.deleteJournalOfThread,
    statements.deleteSchedulesOfThread,
    statements.deleteA2ATasksOfThread,
  ])
    await query(statement, [threadId]);
  await query(statements.markAuditOfThread, [threadId, deletedThreadMark]);
  return found.length > 0;
}
