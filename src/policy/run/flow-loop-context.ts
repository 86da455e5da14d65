import type { RunFlowsOptions, TurnState } from '../../turn/index.js';
import type { BackgroundRunner } from './run-background-flows.js';

export interface LoopContext {
  options: RunFlowsOptions;
  turn: TurnState;
  /** Recovery guidance for a flow's next run, by flow id; made when the first is given. */
  guidance: Map<string, string> | undefined;
  background: BackgroundRunner;
}

/** A new id from the agent's generator. */
export function nextId(loop: LoopContext, prefix: string): string {
  return loop.options.ids
    ? loop.options.ids(prefix)
    : `${prefix}_${loop.turn.turnId}_${loop.turn.snapshot.stack.length + 1}`;
}
