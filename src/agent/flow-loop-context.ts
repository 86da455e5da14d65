/**
 * What the flow loop of one turn shares between its phase files, and the one way they change the
 * dialogue state (a reducer transition, noted in the turn's diff).
 */
import { transitionDialogue } from '../flow/index.js';
import { commitDialogue, dialogueOf } from './dialogue-of.js';
import type { RunFlowsOptions } from './flow-run-context.js';
import type { BackgroundRunner } from './run-background-flows.js';
import type { TurnState } from './turn-state.js';

export interface LoopContext {
  options: RunFlowsOptions;
  turn: TurnState;
  /** Recovery guidance for a flow's next run, by flow id; made when the first is given. */
  guidance: Map<string, string> | undefined;
  background: BackgroundRunner;
}

/** Applies one dialogue transition to the turn's snapshot and notes it in the turn's diff. */
export function update(turn: TurnState, event: Parameters<typeof transitionDialogue>[1]): void {
  commitDialogue(turn, transitionDialogue(dialogueOf(turn.snapshot), event));
}

/** A new id from the agent's generator. */
export function nextId(loop: LoopContext, prefix: string): string {
  return loop.options.ids
    ? loop.options.ids(prefix)
    : `${prefix}_${loop.turn.turnId}_${loop.turn.snapshot.stack.length + 1}`;
}
