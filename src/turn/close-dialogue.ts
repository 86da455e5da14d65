/**
 * Popping finished flows, and closing the turn's dialogue: finished flows popped, settled runs pruned,
 * invariants 1–3 checked, and the turn's diff kept in the snapshot.
 */
import { checkDialogueInvariants, isOpen } from '../flow/index.js';
import { pruneSuspendedRuns } from '../hitl/index.js';
import { dialogueOf, noteDialogue, update } from './dialogue-of.js';
import { observe, type TurnState } from './turn-state.js';

/** Turn diffs kept in the snapshot (older ones stay in the observation log). */
export const maxDiffTurns = 16;

/**
 * Pops Completed and Invalid flows, with a `flow-pop` for each. With `keepGoing`, a flow that completed
 * lets the one that waited below it run on in this turn.
 */
export function popFinished(turn: TurnState, options: { keepGoing?: boolean } = {}): void {
  const before = turn.snapshot.stack;
  const completedNow = before.some((f) => f.status === 'completed');
  update(turn, { type: 'pop-finished' });
  const kept = new Set(turn.snapshot.stack.map((f) => f.id));
  for (const f of before.filter((f) => !kept.has(f.id)).reverse()) {
    turn.finished?.push(f);
    observe(turn, 'flow-pop', { flow: f.name, flowId: f.id, status: f.status }, f.id);
  }
  if (options.keepGoing && completedNow && turn.snapshot.stack.length > 0 && !turn.snapshot.pending)
    update(turn, { type: 'set-flags', flags: { keepGoing: true } });
}

/** The end of the turn's flows: nothing finished stays on the stack, and the turn's diff is kept. */
export function closeDialogue(turn: TurnState): void {
  const snapshot = turn.snapshot;
  if (snapshot.stack.some((f) => !isOpen(f))) popFinished(turn, { keepGoing: true });
  pruneSuspendedRuns(snapshot);
  update(turn, { type: 'set-flags', flags: { keepGoing: false } });
  if (snapshot.background?.some((f) => !isOpen(f))) snapshot.background = snapshot.background.filter(isOpen);
  const problems = checkDialogueInvariants(dialogueOf(snapshot), { turnEnd: true });
  if (problems.length > 0) observe(turn, 'error', { phase: 'invariants', problems });
  noteDialogue(turn);
  const changes = turn.changes ?? [];
  if (changes.length === 0) return;
  snapshot.diffs = [
    ...(snapshot.diffs ?? []),
    { turn: snapshot.turnCount + 1, turnId: turn.turnId, changes },
  ].slice(-maxDiffTurns);
}
