import type { JournalEntry } from '../../spec/index.js';

/** A journal row as the memory store keeps it: the call's fields, with the status and outcome given. */
export function journalRow(
  entry: JournalEntry,
  outcome: Pick<JournalEntry, 'status' | 'finishedAt' | 'result'>,
): JournalEntry {
  return {
    key: entry.key,
    threadId: entry.threadId,
    callId: entry.callId,
    toolName: entry.toolName,
    argsHash: entry.argsHash,
    idempotent: entry.idempotent,
    status: outcome.status,
    startedAt: entry.startedAt,
    finishedAt: outcome.finishedAt,
    result: outcome.result,
  };
}
