/**
 * Taint as thread state (docs/decisions/0067-taint-is-thread-state.md). Untrusted content that entered a
 * run's context is recorded in the snapshot with the call that brought it, and every later turn whose
 * context can still hold it starts tainted: its outbound calls wait for approval, and the approval names
 * the call and how the content still reaches the run. A record goes once nothing the runs read holds it:
 * the turn that brought it left the conversation window, and no scratchpad note that turn wrote and no
 * flow that was on its stack is left.
 */
import type { ScratchpadEntry, TaintRecord, ThreadSnapshot } from '../spec/index.js';
import { createTaintState, type TaintSource, type TaintState } from '../tool/index.js';
import type { TurnState } from './turn-state.js';
import type { ConversationMessage } from './turn-types.js';

/**
 * Starts the turn's taint from the records its context can still reach through `window` (the messages
 * its runs read, as history and through the context tool), the scratchpad and the flows on the stack.
 * Records nothing reaches any more are dropped from the snapshot.
 */
export function openThreadTaint(turn: TurnState, window: readonly ConversationMessage[]): TaintState {
  const snapshot = turn.snapshot;
  const kept: TaintRecord[] = [];
  const origins: TaintSource[] = [];
  const inWindow = new Set(window.map((m) => m.turnId));
  for (const record of snapshot.taint ?? []) {
    const via = reachOf(record, snapshot, inWindow, turn.turnId);
    if (via === undefined) continue;
    kept.push(record);
    origins.push({ tool: record.tool, callId: record.callId, turnId: record.turnId, via });
  }
  if (kept.length > 0) snapshot.taint = kept;
  else delete snapshot.taint;
  const state = createTaintState({ origins });
  turn.taint = { state, notesAtStart: new Set(snapshot.scratchpad.map(stampOf)) };
  return state;
}

/**
 * Writes the turn's taint to its snapshot: a record per call whose result brought untrusted content in
 * during this turn, carried on by the scratchpad notes the turn wrote and the flows on its stack. Taint a
 * turn only inherited is not spread further: its record stays as it was (see the ADR). Called before
 * each commit of the turn.
 */
export function recordThreadTaint(turn: TurnState): void {
  const taint = turn.taint;
  if (!taint?.state.tainted) return;
  const snapshot = turn.snapshot;
  const notes = new Set(snapshot.scratchpad.map((e) => e.key));
  const written = snapshot.scratchpad.filter((e) => !taint.notesAtStart.has(stampOf(e))).map((e) => e.key);
  const flows = flowsOf(snapshot).map((f) => f.id);
  const records = [...(snapshot.taint ?? [])];
  for (const origin of taint.state.origins ?? []) {
    if (origin.via !== undefined) continue;
    // Content that came in during this turn belongs to it, even when its run began in an earlier one.
    let record = records.find(
      (r) => r.tool === origin.tool && r.callId === origin.callId && r.turnId === turn.turnId,
    );
    if (!record) {
      record = { tool: origin.tool, callId: origin.callId, turnId: turn.turnId };
      records.push(record);
    }
    // The notes it wrote and still keeps, and the flows on the stack now (a flow gone holds nothing).
    record.notes = [...new Set([...(record.notes ?? []), ...written])].filter((key) => notes.has(key));
    record.flows = flows;
    if (record.notes.length === 0) delete record.notes;
    if (record.flows.length === 0) delete record.flows;
  }
  if (records.length > 0) snapshot.taint = records;
}

/** How a record's content still reaches a run of this turn, or `undefined` when nothing holds it. */
function reachOf(
  record: TaintRecord,
  snapshot: ThreadSnapshot,
  inWindow: ReadonlySet<string>,
  turnId: string,
): string | undefined {
  if (record.turnId === turnId) return 'this turn before it was interrupted';
  if (inWindow.has(record.turnId)) return 'the conversation history';
  const note = record.notes?.find((key) => snapshot.scratchpad.some((e) => e.key === key));
  if (note !== undefined) return `the scratchpad note '${note}'`;
  const flow = flowsOf(snapshot).find((f) => record.flows?.includes(f.id));
  if (flow) return `the flow '${flow.name}' (${flow.id}) and its results`;
  return undefined;
}

function flowsOf(snapshot: ThreadSnapshot) {
  return [...snapshot.stack, ...(snapshot.background ?? [])];
}

function stampOf(entry: ScratchpadEntry): string {
  return `${entry.key}\u0000${entry.time}\u0000${entry.text}`;
}
