import { FileSnapshotError } from '../errors/index.js';
import type { FileSnapshotRecord, RollbackReport, RollbackStep } from '../spec/index.js';
import type { FileSnapshotService } from './file-snapshot-service.js';
import { filesChangedSince } from './fingerprint-files.js';
import { foldSnapshotEvents } from './fold-snapshot-events.js';
import { sha256Of } from './internal/record-checksum.js';
import { planRollback } from './plan-rollback.js';
import { resolveRoot, resolveWithinRoot } from './resolve-within-root.js';
import { nodeWorkspaceFiles } from './workspace-files.js';

/** Which snapshot to roll back, and where its files are. */
export interface RollbackFileSnapshotOptions {
  service: FileSnapshotService;
  threadId: string;
  snapshotId: string;
  now: () => number;
  /** Who asked for it, kept in the journal. */
  principal?: string;
  /** Roll back even over changes made to the files after the call (else `conflict`). */
  force?: boolean;
}

/**
 * Runs a snapshot's inverse operations (seed 004 rollback), idempotent and resumable:
 * - everything is checked before anything is written — the snapshot exists on this thread, its record
 *   and every stored content read back with their checksums, every path still resolves inside the root,
 *   nothing in the way is a folder, a link or a file with a second name (hard link), and (unless `force`) no file changed after the call left it,
 *   by a later call or by someone else — else a `FileSnapshotError` and nothing changes;
 * - each write reaches its folder without following a link and lands by an atomic rename inside it
 *   (`nodeWorkspaceFiles`), so a folder swapped for a link meanwhile sends nothing out of the root;
 * - each step is recorded as done in the snapshot's journal (flushed) after it took effect, so a
 *   rollback killed half-way carries on from the first step not recorded; a step done but not recorded
 *   runs again and writes the same bytes;
 * - a finished rollback is recorded with its report, and running it again returns that report without
 *   touching the files.
 */
export async function rollbackFileSnapshot(options: RollbackFileSnapshotOptions): Promise<RollbackReport> {
  const { service, threadId, snapshotId } = options;
  const workspace = service.workspace ?? nodeWorkspaceFiles;
  const record = await service.store.load(threadId, snapshotId);
  if (!record)
    throw new FileSnapshotError({
      reason: 'not_found',
      snapshotId,
      message: `Thread '${threadId}' has no file snapshot '${snapshotId}'.`,
    });
  const progress = foldSnapshotEvents(await service.store.readEvents(threadId, snapshotId));
  if (progress.report) return progress.report;
  const steps = planRollback(record);
  const prepared = await prepare(options, record, steps);
  // Once started, a rollback is finished whatever the files look like: they are half restored by then.
  if (!progress.planned && !options.force && progress.after) {
    const changed = await filesChangedSince(service, record, progress.after);
    if (changed.length > 0)
      throw new FileSnapshotError({
        reason: 'conflict',
        snapshotId,
        path: changed[0] as string,
        message: `${changed.map((p) => `'${p}'`).join(', ')} changed after the call this snapshot was taken for (by a later call or by someone else); rolling back would undo that too, so nothing was rolled back. Roll back the later calls first, or roll back with force to overwrite those changes.`,
      });
  }
  let planned = progress.planned;
  if (!planned) {
    planned = {
      restored: steps.flatMap((s) => (s.kind === 'restore' ? [s.path] : [])),
      removed: steps.flatMap((s, index) =>
        s.kind === 'remove-file' && prepared[index]?.present ? [s.path] : [],
      ),
    };
    await service.store.append(threadId, snapshotId, {
      type: 'rollback-start',
      at: options.now(),
      ...(options.principal !== undefined ? { by: options.principal } : {}),
      ...planned,
    });
  }
  for (const [index, step] of steps.entries()) {
    if (progress.done.has(index)) continue;
    const { absolute, bytes } = prepared[index] as Prepared;
    if (step.kind === 'restore') await workspace.write(absolute, bytes as Uint8Array, step.mode);
    else if (step.kind === 'remove-file') await workspace.removeFile(absolute);
    else await workspace.removeDir(absolute);
    await service.store.append(threadId, snapshotId, { type: 'step-done', step: index, at: options.now() });
  }
  const report: RollbackReport = {
    snapshotId,
    threadId,
    callId: record.callId,
    toolName: record.toolName,
    status: 'rolled-back',
    restored: planned.restored,
    removed: planned.removed,
  };
  await service.store.append(threadId, snapshotId, { type: 'rollback-done', at: options.now(), report });
  return report;
}

interface Prepared {
  absolute: string;
  /** Something is at the path now. */
  present: boolean;
  bytes?: Uint8Array;
}

/** Resolves and reads everything a rollback needs, refusing before the first write. */
async function prepare(
  options: RollbackFileSnapshotOptions,
  record: FileSnapshotRecord,
  steps: readonly RollbackStep[],
): Promise<Prepared[]> {
  const { service, snapshotId } = options;
  const workspace = service.workspace ?? nodeWorkspaceFiles;
  if ((await resolveRoot(service.root)) !== record.root)
    throw new FileSnapshotError({
      reason: 'outside_root',
      snapshotId,
      message: `File snapshot '${snapshotId}' was taken under '${record.root}', outside the allowed root.`,
    });
  const prepared: Prepared[] = [];
  for (const step of steps) {
    const { absolute } = await resolveWithinRoot(service.root, step.path);
    const there = await workspace.inspect(absolute);
    if (step.kind !== 'remove-dir' && there?.kind === 'other')
      throw new FileSnapshotError({
        reason: 'not_a_file',
        snapshotId,
        path: step.path,
        message: `'${step.path}' is now a folder or a link; the rollback would overwrite it and was not started.`,
      });
    if (step.kind === 'restore' && (there?.links ?? 1) > 1)
      throw new FileSnapshotError({
        reason: 'not_a_file',
        snapshotId,
        path: step.path,
        message: `'${step.path}' now has more than one name (a hard link, maybe to a file outside the root); the rollback was not started.`,
      });
    if (step.kind !== 'restore') {
      prepared.push({ absolute, present: there !== undefined });
      continue;
    }
    const bytes = await service.store.readContent(record.threadId, snapshotId, step.content);
    if (bytes.byteLength !== step.size || sha256Of(bytes) !== step.sha256)
      throw new FileSnapshotError({
        reason: 'corrupt',
        snapshotId,
        path: step.path,
        message: `The stored copy of '${step.path}' in file snapshot '${snapshotId}' does not match its checksum; nothing was rolled back.`,
      });
    prepared.push({ absolute, present: there !== undefined, bytes });
  }
  return prepared;
}
