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

/** Runs `stages` in order around one call. The last stage must answer without calling `next`. */
export function runStages(stages: readonly ToolStage[], state: ToolCallState): Promise<ToolCallResult> {
  const dispatch = (index: number, current: ToolCallState): Promise<ToolCallResult> => {
    const stage = stages[index];
    if (!stage)
      return Promise.resolve(
        errorResult(current, 'server_error', 'The tool pipeline has no executing stage.'),
      );
    return stage(current, (nextState) => dispatch(index + 1, nextState));
  };
  return dispatch(0, state);
}
