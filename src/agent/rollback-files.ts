/**
 * `agent.rollback`: restores the files one tool call changed, from the snapshot taken before it ran
 * (seed 004, DESIGN.md §6). Idempotent and resumable: a rollback that ran returns its report again; one
 * a crash interrupted carries on from its journal. Everything is checked before the first write.
 */
import {
  createDirectorySnapshotStore,
  type FileSnapshotService,
  listFileSnapshots,
  rollbackFileSnapshot,
  type WorkspaceFiles,
} from '../consistency/index.js';
import { FileSnapshotError, InputError } from '../errors/index.js';
import type { FileSnapshotStore, RollbackReport } from '../spec/index.js';

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
}

/** Restoring the files of one snapshot of a thread, named by its id or by the call that took it. */
export interface RollbackOptions {
  threadId: string;
  /** One of `readThread(id).fileSnapshots`. */
  snapshotId?: string;
  /** Or the call whose snapshot to restore (its latest, if the id was used in several turns). */
  callId?: string;
  /** Who asks; must own the thread. */
  principal?: string;
}

/** The agent's snapshot service from its `files` options, with the defaults filled in. */
export function createFileSnapshotService(options: AgentFileOptions = {}): FileSnapshotService {
  return {
    root: options.root ?? process.cwd(),
    store:
      options.store ?? createDirectorySnapshotStore({ dir: options.snapshotDir ?? '.flowstack/snapshots' }),
    ...(options.workspace ? { workspace: options.workspace } : {}),
  };
}

/**
 * Rolls back one snapshot of the thread. Throws `InputError` when neither id is given and
 * `FileSnapshotError` for an unknown id (`not_found`), a path that now leads out of the root
 * (`outside_root`), a folder or link in the way (`not_a_file`) or an unreadable snapshot (`corrupt`);
 * in every case nothing was changed.
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
  });
}
