import type { JournalEntry, ToolCallResult } from '../../spec/index.js';
import { argsHashOf, idempotencyKeyOf, type ToolCallState } from '../tool-call-state.js';
import type { ToolStage } from '../tool-pipeline.js';
import { errorResult } from '../tool-results.js';

/**
 * Answers a call whose result is already journaled (a resumed or repeated batch) with that result,
 * before any gate, limit or audit sees it: what happened is not asked for again, counted again or run
 * again (DESIGN.md invariant 5). The same call id with other arguments is refused, never answered with
 * another call's result.
 */
export const replayJournaled: ToolStage = (state, next) => {
  if (!state.batch.store || !state.tool) return next(state);
  const fresh = state.batch.freshJournal;
  // A turn begun here under a new id: only what it journaled itself can be there. Answered without an
  // async frame, whose promise would only wrap the inner stages' one.
  if (fresh && fresh.turnId === state.batch.turnId && !fresh.keys.has(idempotencyKeyOf(state))) {
    state.journaled = null;
    return next(state);
  }
  return replay(state, next);
};

const replay: ToolStage = async (state, next) => {
  const store = state.batch.store;
  if (!store || !state.tool) return next(state);
  const entry = await store.readJournal(idempotencyKeyOf(state));
  state.journaled = entry ?? null;
  if (!entry || entry.status === 'started' || entry.result === undefined) return next(state);
  return replayEntry(state, entry);
};

/**
 * The answer to a call whose journal row has a result: that result, unless the row belongs to another
 * call that used the same call id (other tool or other arguments), which is refused.
 */
export function replayEntry(state: ToolCallState, entry: JournalEntry): ToolCallResult {
  if (entry.toolName !== state.tool?.name || entry.argsHash !== argsHashOf(state)) {
    return errorResult(
      state,
      'validation_error',
      `Call id '${state.request.callId}' was already used for another call in this turn; use a new call id.`,
      false,
    );
  }
  state.toolContent = true;
  try {
    return JSON.parse(entry.result ?? '') as ToolCallResult;
  } catch {
    return errorResult(state, 'server_error', 'The journaled result of this call cannot be read.', false);
  }
}
