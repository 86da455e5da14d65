/**
 * Settles the audit rows a dead process left `started` (issue 31, item 11). A row is begun before its
 * call and completed after it; a process killed in between leaves it `started` for ever, which reads as a
 * call still running. When the thread's interrupted turn is replayed or closed, the lease is held, so no
 * call of the thread can be running anywhere: every `started` row of the thread is such a leftover, and
 * becomes `interrupted`. Whether the call took effect is the journal's and the person's to say (the
 * replayed call gets its own row, `replayed` when it was answered without running).
 */
import type { StateStore } from '../spec/index.js';
import type { Clock } from '../util/index.js';

/** Rows looked at: far more than one turn's calls. */
const scanLimit = 1_000;

export const interruptedAuditSummary =
  'The process stopped during this call, before its result was recorded; the replayed turn settled it.';

export async function settleInterruptedAudit(options: {
  store: StateStore;
  clock: Clock;
  threadId: string;
}): Promise<number> {
  const { store, clock, threadId } = options;
  const rows = await store.readAudit({ threadId, limit: scanLimit });
  const left = rows.filter((row) => row.status === 'started');
  for (const row of left) {
    await store.completeAudit({
      id: row.id,
      status: 'interrupted',
      outputSummary: interruptedAuditSummary,
      durationMs: Math.max(0, clock.now() - row.createdAt),
    });
  }
  return left.length;
}
