/**
 * Moves the dialogue state between the thread snapshot and the pure reducer of src/flow.
 */
import { type DialogueState, diffDialogue, transitionDialogue } from '../flow/index.js';
import type { ThreadSnapshot } from '../spec/index.js';
import { cloneData } from '../util/index.js';
import type { TurnState } from './turn-state.js';

export function dialogueOf(snapshot: ThreadSnapshot): DialogueState {
  return { stack: snapshot.stack, flags: { ...snapshot.flags }, background: snapshot.background ?? [] };
}

/**
 * Writes the user-facing part (stack and flags) back. Background flows change concurrently and are
 * written only by the background runner and by `schedule`, never from a user-facing flow's state.
 */
export function applyDialogue(snapshot: ThreadSnapshot, state: DialogueState): void {
  snapshot.stack = state.stack;
  snapshot.flags = state.flags;
}

/**
 * Writes a new dialogue state to the turn's snapshot and appends what changed to the turn's diff, so
 * the per-turn history keeps flows that came and went within the turn.
 */
export function commitDialogue(turn: TurnState, state: DialogueState): void {
  applyDialogue(turn.snapshot, state);
  noteDialogue(turn);
}

/** Appends the changes since the last note (including background changes) to the turn's diff. */
export function noteDialogue(turn: TurnState): void {
  const now = cloneData(dialogueOf(turn.snapshot));
  const last = turn.dialogueLast ?? turn.dialogueStart;
  if (last) {
    turn.changes ??= [];
    turn.changes.push(...diffDialogue(last, now));
  }
  turn.dialogueLast = now;
}

/** Applies one dialogue transition to the turn's snapshot and notes it in the turn's diff. */
export function update(turn: TurnState, event: Parameters<typeof transitionDialogue>[1]): void {
  commitDialogue(turn, transitionDialogue(dialogueOf(turn.snapshot), event));
}
