import { VersionConflictError } from '../../../errors/index.js';
import type { CommitResult, ThreadCommit } from '../../../spec/index.js';
import type { Query } from './create-postgres-connection.js';
import type { PostgresStatements } from './postgres-statements.js';

/**
 * One commit, run inside a transaction: check and bump the version, then append the history and the
 * observations (the outbox), so that either all of it is written or none.
 *
 * Exactly one winner: version 0 is an `INSERT … ON CONFLICT DO NOTHING` (a concurrent creator waits for
 * the first one's outcome and then inserts nothing); any other version is an `UPDATE … WHERE version =
 * $expected` (a concurrent writer waits for the row lock, then sees the new version and matches no row).
 * The loser reads the current version in a new statement, which under READ COMMITTED sees the winner.
 *
 * Observation ids in commit order: ids come from one counter row, updated as the last write before
 * COMMIT. The update holds the row lock until the transaction ends, and a waiting transaction only gets
 * its ids after the holder's commit is visible; so a commit never makes visible an id lower than one a
 * reader could already see, and replaying with `afterId` misses nothing. The price: commits that carry
 * observations take turns for the time of one COMMIT. A thread row lock alone would order ids within a
 * thread, but the contract promises ids that increase store-wide.
 */
export async function commitThread(
  query: Query,
  statements: PostgresStatements,
  change: ThreadCommit,
): Promise<CommitResult> {
  const history = change.history ?? [];
  const observations = change.observations ?? [];
  const principal = change.principal ?? null;
  const [head] =
    change.expectedVersion === 0
      ? await query<{ version: number; lastSeq: number }>(statements.insertThread, [
          change.threadId,
          change.data,
          principal,
          change.now,
          history.length,
        ])
      : await query<{ version: number; lastSeq: number }>(statements.updateThread, [
          change.threadId,
          change.expectedVersion,
          change.data,
          principal,
          change.now,
          history.length,
        ]);
  if (!head) {
    const [current] = await query<{ version: number }>(statements.selectThreadVersion, [change.threadId]);
    throw new VersionConflictError({
      threadId: change.threadId,
      expectedVersion: change.expectedVersion,
      actualVersion: current?.version ?? 0,
    });
  }
  const historySeqs = history.map((_, index) => head.lastSeq + index + 1);
  if (history.length > 0) {
    await query(statements.insertHistory, [
      change.threadId,
      head.lastSeq,
      history.map((draft) => draft.kind),
      history.map((draft) => draft.turnId),
      history.map((draft) => draft.data),
      change.now,
    ]);
  }
  let observationIds: number[] = [];
  if (observations.length > 0) {
    const rows = await query<{ id: number }>(statements.insertObservations, [
      change.threadId,
      observations.length,
      observations.map((draft) => draft.type),
      observations.map((draft) => draft.data),
      change.now,
    ]);
    // Ids are base + 1 … base + n in the order given; RETURNING does not promise an order, sorting does.
    observationIds = rows.map((row) => row.id).sort((a, b) => a - b);
  }
  return { version: head.version, historySeqs, observationIds };
}
