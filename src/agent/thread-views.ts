/**
 * Reading a thread as the API shows it, and rolling back one of its file snapshots under its lease.
 */
import { listFileSnapshots, type RollbackOptions, rollbackFiles } from '../consistency/index.js';
import { ThreadNotFoundError } from '../errors/index.js';
import { describeSuspension, listSuspensions } from '../hitl/resume/index.js';
import type { AgentConfig } from '../options/index.js';
import type { RollbackReport } from '../spec/index.js';
import {
  commitTurn,
  createTurnRecord,
  loadThread,
  observe,
  readRecentMessages,
  type ThreadView,
} from '../turn/index.js';
import { loadOwnedThread } from './send-message.js';

export async function readThreadView(config: AgentConfig, threadId: string): Promise<ThreadView> {
  const loaded = await loadThread(config.store, threadId);
  if (!loaded) throw new ThreadNotFoundError({ threadId });
  return {
    threadId,
    version: loaded.version,
    snapshot: loaded.snapshot,
    messages: await readRecentMessages(config.store, loaded.snapshot, Number.MAX_SAFE_INTEGER),
    suspensions: listSuspensions(loaded.snapshot).map(describeSuspension),
    fileSnapshots: await listFileSnapshots(config.files.store, threadId),
  };
}

/**
 * Restores one file snapshot of the thread, holding its lease so no turn changes files meanwhile, and
 * saves a `file-rollback` observation with the report (saved, then published).
 */
export async function rollbackThread(config: AgentConfig, options: RollbackOptions): Promise<RollbackReport> {
  const { threadId, principal } = options;
  return config.holdLease(threadId, async (lease) => {
    const loaded = await loadOwnedThread(config, threadId, principal);
    if (loaded.version === 0) throw new ThreadNotFoundError({ threadId });
    const report = await rollbackFiles(config.files, { ...options, now: () => config.clock.now() });
    const turn = createTurnRecord({
      threadId,
      turnId: config.ids('turn'),
      snapshot: loaded.snapshot,
      baseVersion: loaded.version,
      clock: config.clock,
      lease,
    });
    observe(turn, 'file-rollback', { ...report, ...(principal !== undefined ? { by: principal } : {}) });
    await commitTurn(turn, config.store, config.bus);
    return report;
  });
}
