import type { JournalEntry, ToolCallResult } from '../../spec/index.js';
import { argsHashOf, idempotencyKeyOf, type ToolCallState } from '../tool-call-state.js';
import { errorResult } from '../tool-results.js';
import type { StageAnswer } from '../tool-stage.js';

/**
 * Answers a call whose result is already journaled (a resumed or repeated batch) with that result,
 * before any gate, limit or audit sees it: what happened is not asked for again, counted again or run
 * again (DESIGN.md invariant 5). The same call id with other arguments is refused, never answered with
 * another call's result. A turn begun in this process under a new id reads only the keys it journaled
 * itself: nothing else can be there (docs/decisions/0038).
 */
export function replayJournaled(state: ToolCallState): StageAnswer<ToolCallResult | undefined> {
  const { store, freshJournal, turnId } = state.batch;
  if (!store || !state.tool) return undefined;
  const key = idempotencyKeyOf(state);
  if (freshJournal && freshJournal.turnId === turnId && !freshJournal.keys.has(key)) {
    state.journaled = null;
    return undefined;
  }
  return store.readJournal(key).then((entry) => {
    state.journaled = entry ?? null;
    if (!entry || entry.status === 'started' || entry.result === undefined) return undefined;
    return replayEntry(state, entry);
  });
}

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
