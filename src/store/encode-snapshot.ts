import { SnapshotError } from '../errors/index.js';
import type { ThreadSnapshot } from '../spec/index.js';
import { describeSchemaIssues } from './internal/describe-schema-issues.js';
import { looksLikeSnapshot } from './internal/snapshot-shape-check.js';
import { threadSnapshotSchema } from './thread-snapshot-schema.js';

/**
 * Turns a snapshot into the JSON text a store commits (`ThreadCommit.data`). The snapshot is checked
 * against the same schema `decodeSnapshot` uses first (compiled by Ajv; Zod when Ajv refuses), so that a
 * snapshot which could not be read back is refused (`SnapshotError` `invalid_shape`) before anything is
 * written. Values under `extensions`, slots and results must be JSON values; anything else is lost or
 * refused by `JSON.stringify`.
 */
export function encodeSnapshot(snapshot: ThreadSnapshot): string {
  const threadId = typeof snapshot?.threadId === 'string' ? snapshot.threadId : '(unknown)';
  // Ajv's compiled check first (no copy of the snapshot); Zod gives the verdict and the messages otherwise.
  const result = looksLikeSnapshot(snapshot) ? undefined : threadSnapshotSchema.safeParse(snapshot);
  if (result && !result.success) {
    throw new SnapshotError({
      threadId,
      reason: 'invalid_shape',
      message: `Refusing to save an invalid snapshot of thread '${threadId}':\n${describeSchemaIssues(result.error.issues)}`,
      cause: result.error,
    });
  }
  try {
    return JSON.stringify(snapshot);
  } catch (cause) {
    throw new SnapshotError({
      threadId,
      reason: 'invalid_shape',
      message: `Snapshot of thread '${threadId}' cannot be written as JSON: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    });
  }
}
