/**
 * `agent.rollback`: restores the files one tool call changed, from the snapshot taken before it ran
 * (seed 004, DESIGN.md §6). Idempotent and resumable: a rollback that ran returns its report again; one
 * a crash interrupted carries on from its journal. Everything is checked before the first write.
 */

import { ConfigurationError, FileSnapshotError, InputError } from '../errors/index.js';
import type { FileSnapshotStore, RollbackReport } from '../spec/index.js';
import { createDirectorySnapshotStore } from './create-directory-snapshot-store.js';
import type { FileSnapshotService } from './file-snapshot-service.js';
import { listFileSnapshots } from './list-file-snapshots.js';
import type { FileSnapshotRetention } from './prune-file-snapshots.js';
import { rollbackFileSnapshot } from './rollback-file-snapshot.js';
import type { WorkspaceFiles } from './workspace-files.js';

/** Where the files of tools that declare `touches` may be, and where their snapshots go. */
export interface AgentFileOptions {
  /** Every declared path must resolve inside this folder (default: the working folder). */
  root?: string;
  /** Default `.flowstack/snapshots` (made when the first snapshot is taken). */
  snapshotDir?: string;
  /** Replaces the snapshot folder. */
  store?: FileSnapshotStore;
  /** The file operations (tests count them); defaults to the real file system. */
  workspace?: WorkspaceFiles;
  /**
   * How long snapshots of calls that are settled (succeeded, kept, rolled back) are kept: by default 30
   * days and the newest 100 per thread, checked after a call that takes a snapshot at most every 10
   * minutes per thread; `false` keeps every one. Snapshots still waiting for a person's decision are
   * never removed.
   */
  keep?: FileSnapshotRetention | false;
}

/** The retention when `files.keep` is left out. */
export const defaultFileSnapshotRetention: Required<FileSnapshotRetention> = {
  maxAgeMs: 30 * 24 * 60 * 60 * 1000,
  maxPerThread: 100,
  checkEveryMs: 10 * 60 * 1000,
};

/** Restoring the files of one snapshot of a thread, named by its id or by the call that took it. */
export interface RollbackOptions {
  threadId: string;
  /** One of `readThread(id).fileSnapshots`. */
  snapshotId?: string;
  /** Or the call whose snapshot to restore (its latest, if the id was used in several turns). */
  callId?: string;
  /** Who asks; must own the thread. */
  principal?: string;
  /** Roll back even when the files changed after the call (by a later call or a person); else `conflict`. */
  force?: boolean;
}

/** The agent's snapshot service from its `files` options, with the defaults filled in. */
export function createFileSnapshotService(options: AgentFileOptions = {}): FileSnapshotService {
  const keep = options.keep === false ? undefined : { ...defaultFileSnapshotRetention, ...options.keep };
  if (keep) assertRetention(keep);
  return {
    root: options.root ?? process.cwd(),
    store:
      options.store ?? createDirectorySnapshotStore({ dir: options.snapshotDir ?? '.flowstack/snapshots' }),
    ...(options.workspace ? { workspace: options.workspace } : {}),
    ...(keep ? { keep } : {}),
  };
}

function assertRetention(keep: FileSnapshotRetention): void {
  const problems: string[] = [];
  if (keep.maxAgeMs !== undefined && !(Number.isFinite(keep.maxAgeMs) && keep.maxAgeMs > 0))
    problems.push(`files.keep.maxAgeMs must be a positive number of milliseconds, not ${keep.maxAgeMs}.`);
  if (keep.maxPerThread !== undefined && !(Number.isInteger(keep.maxPerThread) && keep.maxPerThread >= 1))
    problems.push(`files.keep.maxPerThread must be a whole number of at least 1, not ${keep.maxPerThread}.`);
  if (keep.checkEveryMs !== undefined && !(Number.isFinite(keep.checkEveryMs) && keep.checkEveryMs >= 0))
    problems.push(`files.keep.checkEveryMs must be 0 or more milliseconds, not ${keep.checkEveryMs}.`);
  if (problems.length > 0)
    throw new ConfigurationError({ message: 'The file snapshot retention is not valid:', problems });
}

/**
 * Rolls back one snapshot of the thread. Throws `InputError` when neither id is given and
 * `FileSnapshotError` for an unknown id (`not_found`), a path that now leads out of the root
 * (`outside_root`), a folder or link in the way (`not_a_file`), an unreadable snapshot (`corrupt`) or
 * files changed since the call left them (`conflict`, unless `force`); in every case nothing was changed.
 */
export async function rollbackFiles(
  service: FileSnapshotService,
  options: RollbackOptions & { now: () => number },
): Promise<RollbackReport> {
  const { threadId } = options;
  let snapshotId = options.snapshotId;
  if (snapshotId === undefined) {
    if (options.callId === undefined)
      throw new InputError({
        reason: 'invalid',
        message: 'Name the snapshot to roll back: snapshotId or callId.',
      });
    const found = (await listFileSnapshots(service.store, threadId)).filter(
      (s) => s.callId === options.callId,
    );
    snapshotId = found.at(-1)?.id;
    if (snapshotId === undefined)
      throw new FileSnapshotError({
        reason: 'not_found',
        message: `Thread '${threadId}' has no file snapshot of call '${options.callId}'.`,
      });
  }
  return rollbackFileSnapshot({
    service,
    threadId,
    snapshotId,
    now: options.now,
    ...(options.principal !== undefined ? { principal: options.principal } : {}),
    ...(options.force ? { force: true } : {}),
  });
}
