import type { FileSnapshotStore, FileSnapshotSummary } from '../spec/index.js';
import { foldSnapshotEvents } from './fold-snapshot-events.js';

/**
 * A thread's file snapshots, oldest first, as its thread view lists them. A snapshot that cannot be
 * read is listed as `corrupt` rather than hidden; rolling it back is refused with a typed error.
 */
export async function listFileSnapshots(
  store: FileSnapshotStore,
  threadId: string,
): Promise<FileSnapshotSummary[]> {
  const summaries: FileSnapshotSummary[] = [];
  for (const id of await store.list(threadId)) {
    try {
      const record = await store.load(threadId, id);
      if (!record) continue;
      const { status } = foldSnapshotEvents(await store.readEvents(threadId, id));
      summaries.push({
        id,
        callId: record.callId,
        toolName: record.toolName,
        status,
        paths: record.files.map((f) => f.path),
        createdAt: record.createdAt,
      });
    } catch {
      summaries.push({ id, callId: '', toolName: '', status: 'corrupt', paths: [], createdAt: 0 });
    }
  }
  return summaries;
}
