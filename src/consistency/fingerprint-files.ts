import type { FileFingerprint, FileSnapshotRecord } from '../spec/index.js';
import type { FileSnapshotService } from './file-snapshot-service.js';
import { sha256Of } from './internal/record-checksum.js';
import { resolveWithinRoot } from './resolve-within-root.js';
import { nodeWorkspaceFiles } from './workspace-files.js';

/** Stands for a folder or link where a declared file was (a hash no file's bytes are expected to have). */
const notAFile = sha256Of(new TextEncoder().encode('flowstack: not a regular file'));

/** The snapshot's declared files as they are now: bytes' SHA-256 and mode, or `null` when absent. */
export async function fingerprintFiles(
  service: FileSnapshotService,
  record: FileSnapshotRecord,
): Promise<FileFingerprint[]> {
  const workspace = service.workspace ?? nodeWorkspaceFiles;
  const fingerprints: FileFingerprint[] = [];
  for (const file of record.files) {
    const { absolute } = await resolveWithinRoot(service.root, file.path);
    const info = await workspace.inspect(absolute);
    if (!info) fingerprints.push({ path: file.path, sha256: null });
    else if (info.kind !== 'file') fingerprints.push({ path: file.path, sha256: notAFile });
    else
      fingerprints.push({
        path: file.path,
        sha256: sha256Of(await workspace.read(absolute)),
        mode: info.mode,
      });
  }
  return fingerprints;
}

/** The paths whose bytes, mode or existence differ now from `then` (a path `then` does not list is not checked). */
export async function filesChangedSince(
  service: FileSnapshotService,
  record: FileSnapshotRecord,
  then: readonly FileFingerprint[],
): Promise<string[]> {
  const now = new Map((await fingerprintFiles(service, record)).map((f) => [f.path, f]));
  return then.flatMap((before) => {
    const current = now.get(before.path);
    if (!current) return [];
    const same =
      current.sha256 === before.sha256 && (before.mode === undefined || current.mode === before.mode);
    return same ? [] : [before.path];
  });
}
