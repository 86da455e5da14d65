import type { HistoryKind, ThreadCommit } from '../../spec/index.js';
import { StoreError } from '../store-error.js';

const historyKinds: ReadonlySet<HistoryKind> = new Set<HistoryKind>([
  'message',
  'tool-call',
  'tool-result',
  'step-output',
  'frame',
]);

/**
 * Checks a commit before any row is touched, so that every store rejects the same malformed changes
 * with the same error and a rejected commit never leaves half an outbox behind.
 */
export function assertValidCommit(store: string, change: ThreadCommit): void {
  const problems: string[] = [];
  if (typeof change.threadId !== 'string' || change.threadId.length === 0) {
    problems.push('threadId must be a non-empty string');
  }
  if (!Number.isSafeInteger(change.expectedVersion) || change.expectedVersion < 0) {
    problems.push('expectedVersion must be an integer ≥ 0');
  }
  if (typeof change.data !== 'string') problems.push('data must be JSON text');
  if (change.principal !== undefined && typeof change.principal !== 'string') {
    problems.push('principal must be a string when given');
  }
  if (!Number.isFinite(change.now)) problems.push('now must be a finite number');
  change.history?.forEach((draft, index) => {
    if (!historyKinds.has(draft?.kind)) problems.push(`history[${index}].kind is not a history kind`);
    if (typeof draft?.data !== 'string') problems.push(`history[${index}].data must be JSON text`);
    if (typeof draft?.turnId !== 'string') problems.push(`history[${index}].turnId must be a string`);
  });
  change.observations?.forEach((draft, index) => {
    if (typeof draft?.type !== 'string') problems.push(`observations[${index}].type must be a string`);
    if (typeof draft?.data !== 'string') problems.push(`observations[${index}].data must be JSON text`);
  });
  if (problems.length > 0) {
    throw new StoreError({
      reason: 'invalid_commit',
      store,
      message: `Commit to thread '${String(change.threadId)}' was rejected, nothing was written:\n- ${problems.join('\n- ')}`,
    });
  }
}
