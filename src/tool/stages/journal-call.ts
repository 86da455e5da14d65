import type { ToolCallResult } from '../../spec/index.js';
import { argsHashOf, idempotencyKeyOf } from '../tool-call-state.js';
import type { ToolStage } from '../tool-pipeline.js';
import { errorResult } from '../tool-results.js';

/**
 * Journals the call's start before it runs and its redacted result after (DESIGN.md invariant 5).
 * A call whose result is already journaled is answered from the journal, never run again. A
 * non-idempotent call that started but has no result (a crash in between) is not re-run: it becomes an
 * unknown outcome for the tool's `reconcile` hook or the user.
 */
export const journalCall: ToolStage = (state, next) =>
  state.batch.store && state.tool ? journal(state, next) : next(state);

const journal: ToolStage = async (state, next) => {
  const { store, threadId, clock } = state.batch;
  const tool = state.tool;
  if (!store || !tool) return next(state);
  const key = idempotencyKeyOf(state);
  // The replay stage may have read the entry already in this call.
  const existing =
    state.journaled !== undefined ? (state.journaled ?? undefined) : await store.readJournal(key);
  if (existing?.result !== undefined && existing.status !== 'started') {
    state.toolContent = true;
    return JSON.parse(existing.result) as ToolCallResult;
  }
  if (existing && !tool.idempotent) {
    return errorResult(
      state,
      'server_error',
      'outcome_unknown: this call started before an interruption and recorded no result, so it is not run again.',
      false,
    );
  }
  if (!existing) {
    await store.journalStart({
      key,
      threadId,
      callId: state.request.callId,
      toolName: tool.name,
      argsHash: argsHashOf(state),
      idempotent: tool.idempotent,
      status: 'started',
      startedAt: clock.now(),
    });
  }
  const result = await next(state);
  if (result.status === 'suspended') return result;
  await store.journalFinish({
    key,
    status: result.status === 'success' ? 'succeeded' : 'failed',
    result: JSON.stringify(result),
    finishedAt: clock.now(),
  });
  return result;
};
