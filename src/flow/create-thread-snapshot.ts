import { currentSnapshotVersion, type ThreadSnapshot } from '../spec/index.js';

/** The snapshot of a thread that has had no turn yet. */
export function createThreadSnapshot(threadId: string, principal?: string): ThreadSnapshot {
  const snapshot: ThreadSnapshot = {
    schemaVersion: currentSnapshotVersion as 1,
    threadId,
    stack: [],
    flags: { keepGoing: false, hasIssues: false, hasPlan: false, naturalBirth: true },
    scratchpad: [],
    turnCount: 0,
    historySeq: 0,
    extensions: {},
  };
  if (principal !== undefined) snapshot.principal = principal;
  return snapshot;
}
