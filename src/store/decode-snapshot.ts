import { SnapshotError } from '../errors/index.js';
import type { ThreadSnapshot } from '../spec/index.js';
import { describeSchemaIssues } from './internal/describe-schema-issues.js';
import { looksLikeSnapshot } from './internal/snapshot-shape-check.js';
import { migrateSnapshot, type SnapshotMigration, snapshotMigrations } from './snapshot-migrations.js';
import { threadSnapshotSchema } from './thread-snapshot-schema.js';

/** Options of {@link decodeSnapshot}. */
export interface DecodeSnapshotOptions {
  /** The migration table; defaults to the one flowstack ships. Tests inject their own. */
  migrations?: readonly SnapshotMigration[];
}

/**
 * Reads a stored snapshot (`StoredThread.data`) back into a `ThreadSnapshot`, migrating older versions.
 * Fails loudly with a `SnapshotError` and never writes anything (DESIGN.md invariant 10):
 * - `corrupt` — the text is not JSON;
 * - `future_version` — a newer flowstack wrote it;
 * - `invalid_shape` — it is not a snapshot of this thread (every schema issue is listed), or an older
 *   version cannot be migrated.
 *
 * @example
 * const stored = await store.loadThread(threadId);
 * const snapshot = stored && decodeSnapshot(threadId, stored.data);
 */
export function decodeSnapshot(
  threadId: string,
  data: string,
  options: DecodeSnapshotOptions = {},
): ThreadSnapshot {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (cause) {
    throw new SnapshotError({
      threadId,
      reason: 'corrupt',
      message: `Snapshot of thread '${threadId}' is not valid JSON (${cause instanceof Error ? cause.message : String(cause)}). The stored row is left untouched.`,
      cause,
    });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidShape(threadId, '- (root): expected a JSON object');
  }
  const migrated = migrateSnapshot({
    threadId,
    snapshot: parsed as Record<string, unknown>,
    migrations: options.migrations ?? snapshotMigrations,
  });
  // Parsed JSON is a fresh tree this function owns: when Ajv's compiled check passes it is the snapshot
  // itself, without the copy Zod's parse would make; otherwise Zod decides and lists the issues.
  const snapshot = looksLikeSnapshot(migrated)
    ? (migrated as unknown as ThreadSnapshot)
    : parseStrictly(threadId, migrated);
  if (snapshot.threadId !== threadId) {
    throw invalidShape(threadId, `- threadId: expected '${threadId}', found '${snapshot.threadId}'`);
  }
  return snapshot;
}

function parseStrictly(threadId: string, value: unknown): ThreadSnapshot {
  const result = threadSnapshotSchema.safeParse(value);
  if (!result.success) throw invalidShape(threadId, describeSchemaIssues(result.error.issues), result.error);
  return result.data;
}

function invalidShape(threadId: string, issues: string, cause?: unknown): SnapshotError {
  return new SnapshotError({
    threadId,
    reason: 'invalid_shape',
    message: `Snapshot of thread '${threadId}' is not a valid thread snapshot. The stored row is left untouched.\n${issues}`,
    cause,
  });
}
