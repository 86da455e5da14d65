/**
 * The plan's moves on the flow stack, through the dialogue reducer of src/flow so that every one is in
 * the turn's diff and keeps invariants 1–3: push an item's sub-flow (tagged with the plan's id), leave it
 * (Completed or Invalid, then popped), and end the plan (the Plan flow completes, or is invalidated
 * together with all its sub-flows).
 */
import { StackDepthError } from '../../errors/index.js';
import { type FlowDefinition, transitionDialogue } from '../../flow/index.js';
import type { FlowInstance, TodoItem } from '../../spec/index.js';
import {
  commitDialogue,
  dialogueOf,
  observe,
  popFinished,
  type TurnState,
  update,
} from '../../turn/index.js';

/** Pushes the item's sub-flow (its id is the item's); returns it, or why the stack refused it. */
export function pushSubFlow(options: {
  turn: TurnState;
  planId: string;
  item: TodoItem;
  definition: FlowDefinition;
  maxDepth: number;
}): FlowInstance | string {
  const { turn, definition, item } = options;
  const flow = definition.fillSlotsByLabel(
    definition.create({ id: item.id, planId: options.planId }),
    item.slots ?? {},
  ).flow;
  try {
    commitDialogue(
      turn,
      transitionDialogue(
        dialogueOf(turn.snapshot),
        { type: 'push', flow, intent: definition.intent },
        { maxDepth: options.maxDepth },
      ),
    );
  } catch (error) {
    if (!StackDepthError.isInstance(error)) throw error;
    observe(
      turn,
      'error',
      { phase: 'plan', ...error.toJSON(), maxDepth: error.maxDepth, flow: flow.name },
      item.id,
    );
    return `${error.message} Raise \`limits.maxStackDepth\` to allow more.`;
  }
  observe(
    turn,
    'flow-push',
    { flow: flow.name, flowId: flow.id, slots: flow.slots, planId: options.planId },
    item.id,
  );
  return flow;
}

/** Marks a flow Completed (the active one) or Invalid (with a Plan flow, all its sub-flows too), then pops. */
export function endFlow(turn: TurnState, flowId: string, outcome: { completed: unknown } | 'invalid'): void {
  const flow = turn.snapshot.stack.find((f) => f.id === flowId);
  if (flow && (flow.status === 'active' || flow.status === 'pending')) {
    if (outcome === 'invalid') update(turn, { type: 'invalidate', flowId });
    else if (turn.snapshot.stack.at(-1)?.id === flowId)
      update(turn, { type: 'complete', result: outcome.completed });
  }
  popFinished(turn);
}
