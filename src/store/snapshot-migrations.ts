import { SnapshotError } from '../errors/index.js';
import { currentSnapshotVersion } from '../spec/index.js';

/** One step in the snapshot version history: turns a parsed snapshot of version `from` into version `to`. */
export interface SnapshotMigration {
  from: number;
  to: number;
  /**
   * Gets a freshly parsed snapshot of version `from` (its own copy, free to change) and returns the
   * same thread's snapshot at version `to`, with `schemaVersion` set to `to`.
   */
  migrate(snapshot: Record<string, unknown>): Record<string, unknown>;
}

/**
 * The migrations flowstack ships, oldest first. Empty while version 1 is the only snapshot version;
 * when `currentSnapshotVersion` is bumped, the step from the previous version is added here.
 */
export const snapshotMigrations: readonly SnapshotMigration[] = [];

/**
 * Brings a parsed snapshot of any older version up to `currentSnapshotVersion`, step by step. A version
 * newer than this flowstack knows is refused with `future_version`; a missing step or a failing
 * migration is `invalid_shape`. Nothing is written: the caller saves the result on its next commit.
 */
export function migrateSnapshot(options: {
  threadId: string;
  snapshot: Record<string, unknown>;
  migrations: readonly SnapshotMigration[];
}): Record<string, unknown> {
  const { threadId, migrations } = options;
  let snapshot = options.snapshot;
  const found = snapshot.schemaVersion;
  if (typeof found !== 'number' || !Number.isSafeInteger(found) || found < 0) {
    throw new SnapshotError({
      threadId,
      reason: 'invalid_shape',
      message: `Snapshot of thread '${threadId}' has no valid schemaVersion (found ${JSON.stringify(found) ?? 'nothing'}). The stored row is left untouched.`,
    });
  }
  if (found > currentSnapshotVersion) {
    throw new SnapshotError({
      threadId,
      reason: 'future_version',
      message: `Snapshot of thread '${threadId}' has schemaVersion ${found}, but this flowstack reads up to version ${currentSnapshotVersion}: a newer flowstack wrote it. Upgrade flowstack to resume this thread; the stored row is left untouched.`,
    });
  }
  let version = found;
  while (version < currentSnapshotVersion) {
    const step = migrations.find((migration) => migration.from === version && migration.to > version);
    if (!step) {
      throw new SnapshotError({
        threadId,
        reason: 'invalid_shape',
        message: `Snapshot of thread '${threadId}' has schemaVersion ${version}, and no migration leads from it to version ${currentSnapshotVersion}. The stored row is left untouched.`,
      });
    }
    try {
      snapshot = step.migrate(snapshot);
    } catch (cause) {
      throw new SnapshotError({
        threadId,
        reason: 'invalid_shape',
        message: `Migrating the snapshot of thread '${threadId}' from version ${step.from} to ${step.to} failed: ${cause instanceof Error ? cause.message : String(cause)}. The stored row is left untouched.`,
        cause,
      });
    }
    version = step.to;
  }
  return snapshot;
}
