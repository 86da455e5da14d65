import {
  fingerprintFiles,
  listChangedFiles,
  pruneWhenDue,
  selectTouchedPaths,
  takeFileSnapshot,
} from '../../consistency/index.js';
import { FileSnapshotError, messageOfThrown } from '../../errors/index.js';
import type { FileSnapshotRecord, ToolCallResult } from '../../spec/index.js';
import { argsHashOf, idempotencyKeyOf, type ToolCallState } from '../tool-call-state.js';
import type { ToolDefinition } from '../tool-definition.js';
import { errorResult } from '../tool-results.js';
import type { StageAnswer } from '../tool-stage.js';

/**
 * State consistency (seed 004, DESIGN.md §6): before a tool that declares the files it changes
 * (`touches`) runs, those files — bytes, mode, or that they do not exist — are saved in a durable
 * snapshot keyed by the call. The guard comes after the journal's, so a call whose result is journaled
 * never snapshots again, and before the retries, so the snapshot is of before the first attempt. A path
 * outside the allowed root refuses the call before it runs. After the call, `settleFileChanges`.
 */
export function snapshotFiles(state: ToolCallState): StageAnswer<ToolCallResult | undefined> {
  const tool = state.tool;
  return tool?.touches ? takeSnapshot(state, tool, tool.touches) : undefined;
}

async function takeSnapshot(
  state: ToolCallState,
  tool: ToolDefinition,
  touches: NonNullable<ToolDefinition['touches']>,
): Promise<ToolCallResult | undefined> {
  const { files, threadId, turnId, clock } = state.batch;
  if (!files)
    return errorResult(
      state,
      'server_error',
      'This tool changes files, and no snapshot store is configured to protect them; it did not run.',
      false,
    );
  try {
    state.fileSnapshot = await takeFileSnapshot({
      service: files,
      threadId,
      turnId,
      callId: state.request.callId,
      toolName: tool.name,
      idempotencyKey: idempotencyKeyOf(state),
      paths: selectTouchedPaths(touches, state.input),
      now: clock.now(),
    });
    return undefined;
  } catch (error) {
    const refused = FileSnapshotError.isInstance(error) && error.reason !== 'corrupt';
    const detail = state.batch.redact.text(messageOfThrown(error));
    return errorResult(
      state,
      refused ? 'validation_error' : 'server_error',
      `${detail} The files could not be snapshotted, so the call did not run.`,
      false,
    );
  }
}

/**
 * After a call whose files were snapshotted: success commits the snapshot (it stays listed, and can still
 * be rolled back); a failure or an abort that left files changed becomes a `rollback` question — roll
 * back, keep, or continue — carrying the snapshot id and the error; a failure that changed nothing is
 * just the error.
 */
export function settleFileChanges(state: ToolCallState, result: ToolCallResult): StageAnswer<ToolCallResult> {
  const record = state.fileSnapshot;
  const files = state.batch.files;
  if (!record || !files || result.status === 'suspended') return result;
  return recordFileOutcome(state, result, record, files);
}

async function recordFileOutcome(
  state: ToolCallState,
  result: Exclude<ToolCallResult, { status: 'suspended' }>,
  record: FileSnapshotRecord,
  files: NonNullable<ToolCallState['batch']['files']>,
): Promise<ToolCallResult> {
  const { threadId, clock } = state.batch;
  // The status is a note for people: failing to write it must not turn the call's own result into an
  // error (a call that ran is never reported as not run). The snapshot then stays `taken`.
  const append = async (status: 'committed' | 'failed') => {
    // The files as the call left them: a later rollback refuses to undo changes made after this.
    const after = await fingerprintFiles(files, record).catch(() => undefined);
    await files.store
      .append(threadId, record.id, { type: 'status', status, at: clock.now(), ...(after ? { after } : {}) })
      .catch(() => undefined);
    // Retention, like the status, never changes the call's result; an undecided snapshot is never removed.
    if (files.keep)
      await pruneWhenDue({ store: files.store, threadId, keep: files.keep, now: clock.now() }).catch(
        () => undefined,
      );
  };
  if (result.status === 'success') {
    await append('committed');
    return result;
  }
  await append('failed');
  const changed = await listChangedFiles(files, record).catch(() => record.files.map((f) => f.path));
  if (changed.length === 0) return result;
  return rollbackQuestion(state, result, record, changed);
}

function rollbackQuestion(
  state: ToolCallState,
  failed: Extract<ToolCallResult, { status: 'error' }>,
  record: FileSnapshotRecord,
  changed: readonly string[],
): ToolCallResult {
  const name = state.request.toolName;
  const list = state.batch.redact.text(changed.join(', '));
  return {
    status: 'suspended',
    kind: 'rollback',
    callId: state.request.callId,
    toolName: name,
    reason: `The call to ${name} failed after changing ${list} (${failed.error.message}). Roll back the files, keep them and stop, or keep them and continue?`,
    argsHash: argsHashOf(state),
    idempotencyKey: idempotencyKeyOf(state),
    contextText: `${failed.contextText} It changed ${list} before it failed; the user decides whether to roll back.`,
    fileSnapshotId: record.id,
    failure: failed.error,
  };
}
