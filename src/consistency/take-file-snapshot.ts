import { dirname } from 'node:path';
import { FileSnapshotError } from '../errors/index.js';
import type { FileSnapshotEntry, FileSnapshotRecord } from '../spec/index.js';
import { fileSnapshotIdOf } from './file-snapshot-id.js';
import type { FileSnapshotService } from './file-snapshot-service.js';
import { recordChecksum, sha256Of } from './internal/record-checksum.js';
import { resolveRoot, resolveWithinRoot } from './resolve-within-root.js';
import { nodeWorkspaceFiles, type WorkspaceFiles } from './workspace-files.js';

/** The call whose files to snapshot, and where. */
export interface TakeFileSnapshotOptions {
  service: FileSnapshotService;
  threadId: string;
  turnId: string;
  callId: string;
  toolName: string;
  idempotencyKey: string;
  /** As the call named them; each must resolve inside the root. */
  paths: readonly string[];
  now: number;
}

/**
 * Copies the named files — bytes, mode, or that they do not exist — into a durable snapshot before the
 * call runs (seed 004). Every path is checked first: one outside the root, or one that is not a regular
 * file, refuses the whole snapshot (`FileSnapshotError`) and nothing is written. The snapshot of a call
 * that already has one (it runs again after an interruption) is the one taken before its first run.
 */
export async function takeFileSnapshot(options: TakeFileSnapshotOptions): Promise<FileSnapshotRecord> {
  const { service } = options;
  const workspace = service.workspace ?? nodeWorkspaceFiles;
  const id = fileSnapshotIdOf(options.idempotencyKey);
  const existing = await service.store.load(options.threadId, id);
  if (existing) return existing;
  const root = await resolveRoot(service.root);
  const files: FileSnapshotEntry[] = [];
  const contents = new Map<string, Uint8Array>();
  const seen = new Set<string>();
  for (const path of options.paths) {
    const resolved = await resolveWithinRoot(service.root, path);
    if (seen.has(resolved.relative)) continue;
    seen.add(resolved.relative);
    const info = await workspace.inspect(resolved.absolute);
    if (info?.kind === 'other')
      throw new FileSnapshotError({
        reason: 'not_a_file',
        path,
        message: `Path '${path}' is not a regular file (a folder or a link); it cannot be snapshotted.`,
      });
    // A file with a second name may be a file outside the root linked in (docs/decisions/0077).
    if (info && (info.links ?? 1) > 1)
      throw new FileSnapshotError({
        reason: 'not_a_file',
        path,
        message: `Path '${path}' is a file with more than one name (a hard link, maybe to a file outside the root); it cannot be snapshotted.`,
      });
    if (!info) {
      const createdDirs = await missingFolders(resolved.absolute, resolved.relative, workspace);
      files.push({
        path: resolved.relative,
        existed: false,
        ...(createdDirs.length > 0 ? { createdDirs } : {}),
      });
      continue;
    }
    const bytes = await workspace.read(resolved.absolute);
    const content = `c${contents.size}`;
    contents.set(content, bytes);
    files.push({
      path: resolved.relative,
      existed: true,
      mode: info.mode,
      size: bytes.byteLength,
      sha256: sha256Of(bytes),
      content,
    });
  }
  const draft = {
    specVersion: 1 as const,
    id,
    threadId: options.threadId,
    turnId: options.turnId,
    callId: options.callId,
    toolName: options.toolName,
    idempotencyKey: options.idempotencyKey,
    root,
    createdAt: options.now,
    files,
  };
  return service.store.save({ ...draft, checksum: recordChecksum(draft) }, contents);
}

/** The folders above a missing file that are missing too, outermost first (relative to the root). */
async function missingFolders(absolute: string, relative: string, workspace: WorkspaceFiles) {
  const missing: string[] = [];
  let folder = dirname(absolute);
  let name = dirname(relative);
  while (name !== '.' && name !== '' && !(await workspace.inspect(folder))) {
    missing.unshift(name);
    folder = dirname(folder);
    name = dirname(name);
  }
  return missing;
}
