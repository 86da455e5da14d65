export {
  createDirectorySnapshotStore,
  type DirectorySnapshotStoreOptions,
} from './create-directory-snapshot-store.js';
export { fileSnapshotIdOf, isFileSnapshotId } from './file-snapshot-id.js';
export type { FileSnapshotService } from './file-snapshot-service.js';
export { filesChangedSince, fingerprintFiles } from './fingerprint-files.js';
export { type FileSnapshotProgress, foldSnapshotEvents } from './fold-snapshot-events.js';
export { listChangedFiles } from './list-changed-files.js';
export { listFileSnapshots } from './list-file-snapshots.js';
export { planRollback } from './plan-rollback.js';
export {
  type FileSnapshotRetention,
  type FileSnapshotSweep,
  pruneFileSnapshots,
  pruneWhenDue,
  sweepFileSnapshots,
} from './prune-file-snapshots.js';
export { type ResolvedPath, resolveRoot, resolveWithinRoot } from './resolve-within-root.js';
export { type RollbackFileSnapshotOptions, rollbackFileSnapshot } from './rollback-file-snapshot.js';
export {
  type AgentFileOptions,
  createFileSnapshotService,
  type RollbackOptions,
  rollbackFiles,
} from './rollback-files.js';
export { selectTouchedPaths } from './select-touched-paths.js';
export { type TakeFileSnapshotOptions, takeFileSnapshot } from './take-file-snapshot.js';
export { nodeWorkspaceFiles, type WorkspaceFileInfo, type WorkspaceFiles } from './workspace-files.js';
