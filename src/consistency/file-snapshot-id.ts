import { createHash } from 'node:crypto';

const pattern = /^fs_[0-9a-f]{24}$/;

/**
 * The id of a call's file snapshot, derived from its idempotency key: the same call always has the
 * same snapshot, so a call run again after an interruption keeps the snapshot of before its first run.
 */
export function fileSnapshotIdOf(idempotencyKey: string): string {
  return `fs_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
}

/** Whether `id` has the shape of a snapshot id (anything else never reaches the file system). */
export function isFileSnapshotId(id: string): boolean {
  return pattern.test(id);
}
