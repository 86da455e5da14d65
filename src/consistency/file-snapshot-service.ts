import type { FileSnapshotStore } from '../spec/index.js';
import type { FileSnapshotRetention } from './prune-file-snapshots.js';
import type { WorkspaceFiles } from './workspace-files.js';

/**
 * What the tool pipeline needs to snapshot files: the root every declared path must stay in, where
 * snapshots go, and (for tests that count writes) the file operations.
 */
export interface FileSnapshotService {
  /** Absolute or relative to the process's working folder; paths outside it are refused. */
  root: string;
  store: FileSnapshotStore;
  /** Defaults to `nodeWorkspaceFiles`. */
  workspace?: WorkspaceFiles;
  /** Settled snapshots beyond this are removed after each call that takes one; without it, none are. */
  keep?: FileSnapshotRetention;
}
