/**
 * Internal flows a finished flow's hook asked for (seed 001): only flows of intent `internal` are
 * scheduled, each on the thread's background list, where the background runner starts it.
 */
import {
  type FlowDefinition,
  type InternalFlowRequest,
  toBackgroundFlows,
  transitionDialogue,
} from '../flow/index.js';
import type { IdGenerator } from '../util/index.js';
import { dialogueOf, noteDialogue } from './dialogue-of.js';
import type { TurnState } from './turn-state.js';

export function scheduleBackgroundFlows(
  turn: TurnState,
  requests: readonly InternalFlowRequest[],
  options: { flows: ReadonlyMap<string, FlowDefinition>; ids: IdGenerator },
): void {
  const internal = requests.filter((r) => options.flows.get(r.flow)?.intent === 'internal');
  if (internal.length === 0) return;
  const flows = toBackgroundFlows(internal, { ids: options.ids, existing: turn.snapshot.background ?? [] });
  turn.snapshot.background = transitionDialogue(dialogueOf(turn.snapshot), {
    type: 'schedule',
    flows,
  }).background;
  noteDialogue(turn);
}
