/**
 * What a turn does next, decided by a pure function (DESIGN.md §1, STYLE rule 8): given where the turn
 * stands and what just happened, `stepTurn` returns the next effect — route the message, run the active
 * flow, run the plan, abandon a turn that kept dying, or finish. The shell (`run-turn.ts`) performs each
 * effect and feeds back the event it ends with; nothing here touches a store, a model or a tool.
 * Pseudo-code in docs/architecture/turn-machine.md.
 */
import { activeFlow } from '../flow/index.js';
import type { FlowInstance } from '../spec/index.js';

/** The next thing the shell does for the turn. */
export type TurnEffect =
  /** The decision layer, the pending question's answer or the model's prediction picks the flow. */
  | { type: 'route' }
  /** The active flow runs once through its policy (check → slots → skill → result → verify). */
  | { type: 'run-flow'; flow: FlowInstance }
  /** The plan the active flow belongs to runs its next items. */
  | { type: 'run-plan'; flow: FlowInstance }
  /** A turn whose process died too often: it is stopped, and what it may have done is said. */
  | { type: 'abandon' }
  /**
   * The reply is composed and the turn saved for the last time; `bound` names the turn's bound when the
   * turn ends on it with a flow still ready to run (the reply says which option raises it); `stopped`
   * when the user said stop while the turn ran and a flow was still ready to run (it is cancelled).
   */
  | { type: 'finish'; closeDialogue: boolean; bound?: 'maxFlowsPerTurn'; stopped?: true };

/** What the shell reports back when an effect is done. */
export type TurnEvent =
  /**
   * The turn begins; `routed` when there is nothing to route (a replay past routing, an answer),
   * `exhausted` when it was started too often already.
   */
  | { type: 'start'; routed: boolean; exhausted: boolean }
  /** The abandoned turn's reply is written. */
  | { type: 'abandoned' }
  /** Routing placed the message (or answered it) without failing. */
  | { type: 'routed' }
  /** A flow or a plan step ran; `stop` when the turn must end here (a question, a suspension). */
  | { type: 'ran'; stop: boolean }
  /** The model failed while routing or running: the turn ends with an error reply, the message kept. */
  | { type: 'model-failed' }
  /** The user's stop cut a model call short (a cancel while routing): no failure, the turn just stops. */
  | { type: 'stopped' };

/** The part of the turn's record the decision reads. */
export interface TurnView {
  stack: readonly FlowInstance[];
  /** A question waits for the user's next message. */
  pending: boolean;
  /** A run waits for people (an approval, a blocking tool's answer). */
  suspended: boolean;
  /** The user said stop while the turn runs (seed 004): no further flow run starts. */
  stopRequested: boolean;
  /** Whether a flow (or the sub-flow of a plan item) runs through the plan loop. */
  isPlanned(flow: FlowInstance): boolean;
}

/** The machine's own state: how many flow runs the turn has made, against its bound. */
export interface TurnProgress {
  flowRuns: number;
  maxFlowsPerTurn: number;
}

export interface TurnStep {
  progress: TurnProgress;
  effect: TurnEffect;
}

export function startProgress(maxFlowsPerTurn: number): TurnProgress {
  return { flowRuns: 0, maxFlowsPerTurn };
}

/** The pure transition: where the turn stands and what happened → the next effect. */
export function stepTurn(progress: TurnProgress, view: TurnView, event: TurnEvent): TurnStep {
  switch (event.type) {
    case 'start':
      if (event.exhausted) return { progress, effect: { type: 'abandon' } };
      return event.routed ? nextRun(progress, view) : { progress, effect: { type: 'route' } };
    case 'routed':
      return nextRun(progress, view);
    case 'ran': {
      const ran = { ...progress, flowRuns: progress.flowRuns + 1 };
      return event.stop ? finish(ran, true) : nextRun(ran, view);
    }
    case 'abandoned':
    case 'model-failed':
      return finish(progress, false);
    case 'stopped':
      return { progress, effect: { type: 'finish', closeDialogue: true, stopped: true } };
  }
}

/** Runs the active flow while there is one that can run, within the turn's bound. */
function nextRun(progress: TurnProgress, view: TurnView): TurnStep {
  const flow = activeFlow(view.stack);
  if (!flow || view.pending || view.suspended) return finish(progress, true);
  if (view.stopRequested) return { progress, effect: { type: 'finish', closeDialogue: true, stopped: true } };
  if (progress.flowRuns >= progress.maxFlowsPerTurn)
    return { progress, effect: { type: 'finish', closeDialogue: true, bound: 'maxFlowsPerTurn' } };
  return { progress, effect: { type: view.isPlanned(flow) ? 'run-plan' : 'run-flow', flow } };
}

function finish(progress: TurnProgress, closeDialogue: boolean): TurnStep {
  return { progress, effect: { type: 'finish', closeDialogue } };
}
