/**
 * `agent.deleteThread`: a principal removes a thread and everything kept of it (docs/decisions/0076).
 * It runs under the thread's lease, so no turn of any process is half-way through it, and removes the
 * file snapshots before the store's rows: a deletion cut short leaves the thread findable, and deleting
 * it again finishes the job.
 */
import { ConfigurationError, ThreadNotFoundError } from '../errors/index.js';
import type { AgentConfig, DeleteThreadOptions } from '../options/index.js';
import type { DeletedThread } from './agent-types.js';

export async function deleteThread(
  config: AgentConfig,
  options: DeleteThreadOptions,
): Promise<DeletedThread> {
  const { threadId, principal } = options;
  const { store } = config;
  const files = config.files.store;
  if (!store.deleteThread)
    throw new ConfigurationError({ message: `The ${store.kind} store cannot delete threads.` });
  // Background flows of the thread's last turn land first, so none writes to it after it is gone.
  await config.liveTurns.settled(threadId);
  return config.holdLease(threadId, async () => {
    // Whether it exists and whose it is, from the stored row: its snapshot is not decoded, so a thread
    // whose snapshot cannot be read can still be deleted.
    const stored = await store.loadThread(threadId);
    if (!stored || (principal !== undefined && stored.principal !== principal))
      throw new ThreadNotFoundError({ threadId });
    const snapshotIds = await files.list(threadId);
    if (snapshotIds.length > 0 && !files.remove)
      throw new ConfigurationError({
        message: `Thread '${threadId}' has file snapshots and the snapshot store cannot remove them.`,
      });
    for (const id of snapshotIds) await files.remove?.(threadId, id);
    await store.deleteThread?.(threadId);
    return { threadId, fileSnapshots: snapshotIds.length };
  });
}
