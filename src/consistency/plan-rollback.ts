import type { FileSnapshotRecord, RollbackStep } from '../spec/index.js';

/**
 * The inverse operations of a snapshot, in the order they run: every file the call found is written
 * back with its old bytes and mode, every file it created is removed, then the folders it created are
 * removed when empty, deepest first. Pure: the same record always gives the same plan, so a rollback
 * that resumes after a crash finds its step numbers unchanged.
 */
export function planRollback(record: FileSnapshotRecord): RollbackStep[] {
  const steps: RollbackStep[] = [];
  const folders: string[] = [];
  for (const file of record.files) {
    if (file.existed) {
      const { path, content, mode, sha256, size } = file;
      steps.push({ kind: 'restore', path, content, mode, sha256, size });
    } else {
      steps.push({ kind: 'remove-file', path: file.path });
      for (const folder of file.createdDirs ?? []) if (!folders.includes(folder)) folders.push(folder);
    }
  }
  const deepestFirst = [...folders].sort((a, b) => depth(b) - depth(a) || b.localeCompare(a));
  for (const path of deepestFirst) steps.push({ kind: 'remove-dir', path });
  return steps;
}

function depth(path: string): number {
  return path.split('/').length;
}
