/**
 * The safety pipeline as an ordered list of middleware (DESIGN.md §4). Each stage gets the call's state
 * and `next`; it may answer itself (an error result, a reused result, a suspension) or pass on and
 * post-process what the inner stages return. Stages never throw: every outcome is a `ToolCallResult`.
 */
import type { ToolCallResult } from '../spec/index.js';
import type { ToolCallState } from './tool-call-state.js';
import { errorResult } from './tool-results.js';

type Next = (state: ToolCallState) => Promise<ToolCallResult>;

/**
 * What a stage that only post-processes does with the inner stages' result. `next` runs the inner stages
 * again (a retry). A hook answers at once in the usual case and with a promise only when it must wait.
 */
export type AfterHook = (
  state: ToolCallState,
  result: ToolCallResult,
  next: Next,
) => ToolCallResult | Promise<ToolCallResult>;

/**
 * A stage. One that only post-processes may also carry its work as `after`, and must then behave exactly
 * as `(state, next) => next(state).then((result) => after(state, result, next))`: `runStages` runs a row
 * of such stages as one reaction to the inner result instead of one promise each (docs/decisions/0043).
 */
export type ToolStage = ((state: ToolCallState, next: Next) => Promise<ToolCallResult>) & {
  readonly after?: AfterHook;
};

/** A post-processing stage: callable as any stage, and fusable with its neighbours by `runStages`. */
export function afterStage(after: AfterHook): ToolStage {
  const stage = (state: ToolCallState, next: Next) =>
    next(state).then((result) => after(state, result, next));
  return Object.assign(stage, { after });
}

/** The `next` function of each position, built once per stage list rather than once per call. */
const chains = new WeakMap<readonly ToolStage[], Next>();

/** Runs `stages` in order around one call. The last stage must answer without calling `next`. */
export function runStages(stages: readonly ToolStage[], state: ToolCallState): Promise<ToolCallResult> {
  let first = chains.get(stages);
  if (!first) {
    first = buildChain(stages);
    chains.set(stages, first);
  }
  return first(state);
}

function buildChain(stages: readonly ToolStage[]): Next {
  let next: Next = (current) =>
    Promise.resolve(errorResult(current, 'server_error', 'The tool pipeline has no executing stage.'));
  let index = stages.length - 1;
  while (index >= 0) {
    const stage = stages[index] as ToolStage;
    if (stage.after === undefined) {
      const inner = next;
      next = (current) => stage(current, inner);
      index -= 1;
      continue;
    }
    // A row of post-processing stages, innermost first, each with the chain inside it for its `next`.
    const hooks: AfterHook[] = [];
    const insides: Next[] = [next];
    while (index >= 0 && (stages[index] as ToolStage).after !== undefined) {
      const hook = (stages[index] as ToolStage).after as AfterHook;
      const inside = insides[insides.length - 1] as Next;
      hooks.push(hook);
      insides.push((current) => inside(current).then((result) => hook(current, result, inside)));
      index -= 1;
    }
    const below = insides[0] as Next;
    next = (current) => below(current).then((result) => applyHooks(hooks, insides, current, result, 0));
  }
  return next;
}

/** Applies `hooks` from `from` on, synchronously until one of them has to wait. */
function applyHooks(
  hooks: readonly AfterHook[],
  insides: readonly Next[],
  state: ToolCallState,
  result: ToolCallResult,
  from: number,
): ToolCallResult | Promise<ToolCallResult> {
  let current = result;
  for (let index = from; index < hooks.length; index++) {
    const answer = (hooks[index] as AfterHook)(state, current, insides[index] as Next);
    if (answer instanceof Promise)
      return answer.then((settled) => applyHooks(hooks, insides, state, settled, index + 1));
    current = answer;
  }
  return current;
}
