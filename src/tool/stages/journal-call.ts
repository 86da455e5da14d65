import type { JournalEntry, StateStore, ToolCallResult } from '../../spec/index.js';
import { resultText } from '../result-text.js';
import { argsHashOf, idempotencyKeyOf, type JournalRow, type ToolCallState } from '../tool-call-state.js';
import type { ToolDefinition } from '../tool-definition.js';
import type { StageAnswer } from '../tool-stage.js';
import { replayEntry } from './replay-journaled.js';

/**
 * Journals the call's start before it runs (this guard) and its redacted result after (`finishJournal`),
 * DESIGN.md invariant 5. A call whose result is already journaled is answered from the journal, never run
 * again — a call that waited for a person is journaled as `suspended`, so a replayed step waits again
 * rather than running. A non-idempotent call that started but has no result (a crash in between) is not
 * re-run: its tool's `reconcile` hook decides what happened, and without one (or when it cannot tell) the
 * call becomes an `outcome_unknown` suspension for a person — unless that person already said it did not
 * happen. A call a person answered (`state.answer`) has its row, whatever it held, finished with the answer.
 *
 * An idempotent call known to have no row yet (a turn begun in this process) gets one row, written whole
 * when it has its result: a start row would only say that a call that may safely run again had begun
 * (docs/decisions/0046-one-journal-row-per-idempotent-call.md).
 */
export function startJournal(state: ToolCallState): StageAnswer<ToolCallResult | undefined> {
  const { store, clock } = state.batch;
  const tool = state.tool;
  if (!store || (!tool && !state.answer)) return undefined;
  const key = idempotencyKeyOf(state);
  if (state.answer) return startAnsweredRow(state, store, key);
  if (!tool) return undefined;
  if (tool.idempotent && state.journaled === null && store.journalRecord) {
    // The arguments as called: a tool may change the input object it was given.
    state.journalRow = { key, whole: { argsHash: argsHashOf(state), startedAt: clock.now() } };
    return undefined;
  }
  return startOrHonourRow(state, store, tool, key);
}

/** A resumed call (approved, answered): its row is begun unless an earlier attempt began it. */
async function startAnsweredRow(state: ToolCallState, store: StateStore, key: string): Promise<undefined> {
  if (!(await store.readJournal(key))) await startRow(state, store);
  state.journalRow = { key };
  return undefined;
}

/**
 * Begins the call's row, or honours the row already there: a finished one answers the call, and a
 * started one of a call that must not run twice asks what happened (`reconcileUnknown`).
 */
async function startOrHonourRow(
  state: ToolCallState,
  store: StateStore,
  tool: ToolDefinition,
  key: string,
): Promise<ToolCallResult | undefined> {
  // The replay stage may have read the entry already in this call (or known there is none).
  let existing =
    state.journaled !== undefined ? (state.journaled ?? undefined) : await store.readJournal(key);
  if (!existing) {
    const started = await startRow(state, store);
    // The store keeps a row that was there first: written by another process between the read and
    // now, or after a read that was skipped (a fresh turn). It is honoured as if it had been read.
    if (!isSameStart(started.kept, started.row)) {
      existing = started.kept;
      if (existing.result !== undefined && existing.status !== 'started') return replayEntry(state, existing);
    }
  } else if (existing.result !== undefined && existing.status !== 'started') {
    state.toolContent = true;
    return JSON.parse(existing.result) as ToolCallResult;
  }
  if (existing && !tool.idempotent && !state.rerun) {
    const settled = await reconcileUnknown(state, existing);
    if (settled) return settled;
  }
  state.journalRow = { key };
  return undefined;
}

/** Finishes the row `startJournal` began with the call's result (redacted by now, and uncut). */
export function finishJournal(state: ToolCallState, result: ToolCallResult): StageAnswer<ToolCallResult> {
  const { store, clock } = state.batch;
  const row = state.journalRow;
  if (!store || !row) return result;
  if (row.whole) return recordWhole(state, store, row, result);
  return store
    .journalFinish({
      key: row.key,
      status: journalStatusOf(result),
      result: resultText(result),
      finishedAt: clock.now(),
    })
    .then(() => result);
}

async function startRow(
  state: ToolCallState,
  store: StateStore,
): Promise<{ row: JournalEntry; kept: JournalEntry }> {
  const key = idempotencyKeyOf(state);
  const row: JournalEntry = {
    key,
    threadId: state.batch.threadId,
    callId: state.request.callId,
    toolName: state.tool?.name ?? state.request.toolName,
    argsHash: argsHashOf(state),
    idempotent: state.tool?.idempotent ?? false,
    status: 'started',
    startedAt: state.batch.clock.now(),
  };
  const kept = await store.journalStart(row);
  state.batch.freshJournal?.keys.add(key);
  return { row, kept };
}

/**
 * Records an idempotent call's row with start, end and result in one write. A row that another process
 * or a concurrent duplicate wrote meanwhile is kept when it holds a result of the same call (its result
 * is answered, as a replay would); any other row is finished with this result.
 */
async function recordWhole(
  state: ToolCallState,
  store: StateStore,
  row: JournalRow,
  result: ToolCallResult,
): Promise<ToolCallResult> {
  const { whole, key } = row;
  const tool = state.tool;
  if (!whole || !tool || !store.journalRecord) return result;
  const text = resultText(result);
  const status = journalStatusOf(result);
  const finishedAt = state.batch.clock.now();
  const kept = await store.journalRecord({
    key,
    threadId: state.batch.threadId,
    callId: state.request.callId,
    toolName: tool.name,
    argsHash: whole.argsHash,
    idempotent: true,
    status,
    startedAt: whole.startedAt,
    finishedAt,
    result: text,
  });
  state.batch.freshJournal?.keys.add(key);
  if (kept.result === text) return result;
  if (
    kept.status !== 'started' &&
    kept.result !== undefined &&
    kept.toolName === tool.name &&
    kept.argsHash === whole.argsHash
  )
    return replayEntry(state, kept);
  await store.journalFinish({ key, status, result: text, finishedAt });
  return result;
}

function journalStatusOf(result: ToolCallResult): 'succeeded' | 'failed' | 'suspended' {
  return result.status === 'success' ? 'succeeded' : result.status === 'error' ? 'failed' : 'suspended';
}

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
 * give, or `undefined` when the call is to run: its tool found that the effect did not happen, or that
 * it did (`state.reconciled`, which the execute step answers with).
 */
async function reconcileUnknown(
  state: ToolCallState,
  entry: JournalEntry,
): Promise<ToolCallResult | undefined> {
  const tool = state.tool;
  if (tool?.reconcile) {
    try {
      const verdict = await tool.reconcile(entry.key);
      if (verdict.happened) state.reconciled = { output: verdict.output };
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
