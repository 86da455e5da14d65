/**
 * Moves the dialogue state between the thread snapshot and the pure reducer of src/flow.
 */
import type { DialogueState } from '../flow/index.js';
import type { ThreadSnapshot } from '../spec/index.js';

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
