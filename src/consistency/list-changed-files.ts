import type { FileSnapshotRecord } from '../spec/index.js';
import type { FileSnapshotService } from './file-snapshot-service.js';
import { sha256Of } from './internal/record-checksum.js';
import { resolveWithinRoot } from './resolve-within-root.js';
import { nodeWorkspaceFiles } from './workspace-files.js';

/**
 * The snapshot's files that differ now from when it was taken: bytes, mode, or existence. A failed
 * call that changed nothing has nothing to roll back, and no one is asked.
 */
export async function listChangedFiles(
  service: FileSnapshotService,
  record: FileSnapshotRecord,
): Promise<string[]> {
  const workspace = service.workspace ?? nodeWorkspaceFiles;
  const changed: string[] = [];
  for (const file of record.files) {
    const { absolute } = await resolveWithinRoot(service.root, file.path);
    const info = await workspace.inspect(absolute);
    if (!file.existed) {
      if (info) changed.push(file.path);
      continue;
    }
    if (info?.kind !== 'file' || info.mode !== file.mode || info.size !== file.size) {
      changed.push(file.path);
      continue;
    }
    if (sha256Of(await workspace.read(absolute)) !== file.sha256) changed.push(file.path);
  }
  return changed;
}
