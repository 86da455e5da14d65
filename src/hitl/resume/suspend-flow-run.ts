/**
 * A flow's (or a plan item's) skill run suspends within a turn: its questions are made from the run's
 * checkpoint and a `suspended` observation lists them under the flow. The caller keeps the run waiting.
 */
import type { SuspendedRun } from '../../spec/index.js';
import { observe, type TurnState } from '../../turn/index.js';
import { describeSuspension, type SuspendRunOptions, suspendRun } from './suspend-run.js';

export function suspendFlowRun(turn: TurnState, options: Omit<SuspendRunOptions, 'now'>): SuspendedRun {
  const run = suspendRun({ ...options, now: turn.clock.now() });
  observe(
    turn,
    'suspended',
    { ...options.outcome, suspensions: run.suspensions.map(describeSuspension) },
    options.flowId,
  );
  return run;
}
