/**
 * The safety pipeline as an ordered list of middleware (DESIGN.md §4). Each stage gets the call's state
 * and `next`; it may answer itself (an error result, a reused result, a suspension) or pass on and
 * post-process what the inner stages return. Stages never throw: every outcome is a `ToolCallResult`.
 */
import type { ToolCallResult } from '../spec/index.js';
import type { ToolCallState } from './tool-call-state.js';
import { errorResult } from './tool-results.js';

export type ToolStage = (
  state: ToolCallState,
  next: (state: ToolCallState) => Promise<ToolCallResult>,
) => Promise<ToolCallResult>;

type Next = (state: ToolCallState) => Promise<ToolCallResult>;

/** The `next` function of each position, built once per stage list rather than once per call. */
const chains = new WeakMap<readonly ToolStage[], Next>();

/** Runs `stages` in order around one call. The last stage must answer without calling `next`. */
export function runStages(stages: readonly ToolStage[], state: ToolCallState): Promise<ToolCallResult> {
  let first = chains.get(stages);
  if (!first) {
    let next: Next = (current) =>
      Promise.resolve(errorResult(current, 'server_error', 'The tool pipeline has no executing stage.'));
    for (let index = stages.length - 1; index >= 0; index--) {
      const stage = stages[index] as ToolStage;
      const inner = next;
      next = (current) => stage(current, inner);
    }
    first = next;
    chains.set(stages, first);
  }
  return first(state);
}
