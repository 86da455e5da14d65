import type { JournalEntry, ToolCallResult } from '../../spec/index.js';
import { resultText } from '../result-text.js';
import { argsHashOf, idempotencyKeyOf, type ToolCallState } from '../tool-call-state.js';
import type { ToolStage } from '../tool-pipeline.js';
import { replayEntry } from './replay-journaled.js';

/**
 * Journals the call's start before it runs and its redacted result after (DESIGN.md invariant 5).
 * A call whose result is already journaled is answered from the journal, never run again — a call that
 * waited for a person is journaled as `suspended`, so a replayed step waits again rather than running.
 * A non-idempotent call that started but has no result (a crash in between) is not re-run: its tool's
 * `reconcile` hook decides what happened, and without one (or when it cannot tell) the call becomes an
 * `outcome_unknown` suspension for a person — unless that person already said it did not happen.
 *
 * An idempotent call known to have no row yet (a turn begun in this process) gets one row, written whole
 * when it has its result: a start row would only say that a call that may safely run again had begun, so
 * it is one store write per call less (docs/decisions/0046-one-journal-row-per-idempotent-call.md).
 */
export const journalCall: ToolStage = (state, next) => {
  const { store } = state.batch;
  const tool = state.tool;
  if (!store || !tool) return next(state);
  if (tool.idempotent && state.journaled === null && store.journalRecord) return runThenRecord(state, next);
  return journal(state, next);
};

/**
 * Runs an idempotent call that has no row, then records its row with start, end and result in one write.
 * A row that another process or a concurrent duplicate wrote meanwhile is kept when it holds a result of
 * the same call (its result is answered, as a replay would); any other row is finished with this result.
 */
function runThenRecord(state: ToolCallState, next: Parameters<ToolStage>[1]): Promise<ToolCallResult> {
  const { store, threadId, clock } = state.batch;
  const tool = state.tool;
  const record = store?.journalRecord;
  if (!store || !tool || !record) return next(state);
  const key = idempotencyKeyOf(state);
  // The arguments as called: a tool may change the input object it was given.
  const argsHash = argsHashOf(state);
  const startedAt = clock.now();
  return next(state).then((result) => {
    const text = resultText(result);
    const status = journalStatusOf(result);
    const finishedAt = clock.now();
    return record
      .call(store, {
        key,
        threadId,
        callId: state.request.callId,
        toolName: tool.name,
        argsHash,
        idempotent: true,
        status,
        startedAt,
        finishedAt,
        result: text,
      })
      .then((kept) => {
        state.batch.freshJournal?.keys.add(key);
        if (kept.result === text) return result;
        if (
          kept.status !== 'started' &&
          kept.result !== undefined &&
          kept.toolName === tool.name &&
          kept.argsHash === argsHash
        )
          return replayEntry(state, kept);
        return store.journalFinish({ key, status, result: text, finishedAt }).then(() => result);
      });
  });
}

function journalStatusOf(result: ToolCallResult): 'succeeded' | 'failed' | 'suspended' {
  return result.status === 'success' ? 'succeeded' : result.status === 'error' ? 'failed' : 'suspended';
}

const journal: ToolStage = async (state, next) => {
  const { store, threadId, clock } = state.batch;
  const tool = state.tool;
  if (!store || !tool) return next(state);
  const key = idempotencyKeyOf(state);
  // The replay stage may have read the entry already in this call (or known there is none).
  let existing =
    state.journaled !== undefined ? (state.journaled ?? undefined) : await store.readJournal(key);
  if (!existing) {
    const started: JournalEntry = {
      key,
      threadId,
      callId: state.request.callId,
      toolName: tool.name,
      argsHash: argsHashOf(state),
      idempotent: tool.idempotent,
      status: 'started',
      startedAt: clock.now(),
    };
    const kept = await store.journalStart(started);
    state.batch.freshJournal?.keys.add(key);
    // The store keeps a row that was there first: written by another process between the read and
    // now, or after a read that was skipped (a fresh turn). It is honoured as if it had been read.
    if (!isSameStart(kept, started)) {
      existing = kept;
      if (existing.result !== undefined && existing.status !== 'started') return replayEntry(state, existing);
    }
  } else if (existing.result !== undefined && existing.status !== 'started') {
    state.toolContent = true;
    return JSON.parse(existing.result) as ToolCallResult;
  }
  if (existing && !tool.idempotent && !state.batch.rerunKeys?.has(key)) {
    const settled = await reconcileUnknown(state, existing);
    if (settled) return settled;
  }
  // Not awaited in this frame: while the tool runs, a reaction waits with the row's key, not this frame.
  return next(state).then((result) =>
    store
      .journalFinish({
        key,
        status: journalStatusOf(result),
        result: resultText(result),
        finishedAt: clock.now(),
      })
      .then(() => result),
  );
};

/** Whether the row the store kept is the one this call just started. */
function isSameStart(kept: JournalEntry, started: JournalEntry): boolean {
  return (
    kept.status === 'started' &&
    kept.startedAt === started.startedAt &&
    kept.argsHash === started.argsHash &&
    kept.toolName === started.toolName
  );
}

/**
 * Settles a call that started before an interruption and recorded no result. Returns the result to
 * give, or `undefined` when the tool found that the effect did not happen (the call then runs).
 */
async function reconcileUnknown(
  state: ToolCallState,
  entry: JournalEntry,
): Promise<ToolCallResult | undefined> {
  const tool = state.tool;
  if (tool?.reconcile) {
    try {
      const verdict = await tool.reconcile(entry.key);
      if (!verdict.happened) return undefined;
      state.reconciled = { output: verdict.output };
      return undefined;
    } catch {
      // A reconcile hook that fails cannot tell: a person decides.
    }
  }
  return {
    status: 'suspended',
    kind: 'outcome_unknown',
    callId: state.request.callId,
    toolName: state.request.toolName,
    reason: `The call to '${state.request.toolName}' started before an interruption and left no result; whether it took effect is unknown.`,
    argsHash: argsHashOf(state),
    idempotencyKey: entry.key,
    contextText: `outcome_unknown: the call to '${state.request.toolName}' started before an interruption and left no result, so it is not run again until the user says what happened.`,
  };
}
