/**
 * PEX `execute()` for the active flow (seed 000): pre-hook check → slot review → confirmation when a
 * tool needs approval → skill (flow tools + component tools) → hard-coded fallback → result processing
 * → completion → post-hook verify. It returns the next dialogue state and what happened as data; the
 * agent applies recovery actions, pops finished flows and composes the reply. Each phase lives in a file
 * of its own; this function is their sequence.
 */
import { ConfigurationError } from '../errors/index.js';
import { copyWith } from '../util/index.js';
import { checkActiveFlow } from './check-active-flow.js';
import { completeExecution } from './complete-execution.js';
import type { ExecuteFlowOptions } from './execute-flow-options.js';
import type { FlowExecution } from './flow-execution.js';
import { processSkillOutcome } from './process-skill-outcome.js';
import { reviewAndConfirmSlots } from './review-and-confirm-slots.js';
import { runFlowSkill } from './run-flow-skill.js';
import { verifyFlow } from './verify-flow.js';

export type { ExecuteFlowOptions } from './execute-flow-options.js';
export type { FlowExecution } from './flow-execution.js';

/** Executes the active flow: check → review slots → run skill → process result → complete → verify. */
export async function executeFlow(options: ExecuteFlowOptions): Promise<FlowExecution> {
  // The bound's old shorthand is refused rather than ignored (docs/decisions/0053-one-table-of-bounds.md).
  if (Object.hasOwn(options, 'maxIterations'))
    throw new ConfigurationError({
      message: 'executeFlow({ maxIterations }) was removed.',
      problems: ['maxIterations: set limits.maxIterations instead'],
    });
  const checked = checkActiveFlow(options);
  if ('blocked' in checked) return checked.blocked;
  const reviewed = await reviewAndConfirmSlots(options, checked.checked);
  if ('stop' in reviewed) return reviewed.stop;
  const run = await runFlowSkill(options, reviewed.ready);
  const result = processSkillOutcome(options, reviewed.ready, run);
  if ('stop' in result) return result.stop;
  const { outcome, processed, after } = result.success;
  const completed = completeExecution(options, reviewed.ready, result.success);
  const verify = verifyFlow({
    before: reviewed.ready.state,
    after: completed.state,
    flowId: reviewed.ready.flow.id,
    spec: reviewed.ready.definition,
    ...(processed.frame ? { frame: processed.frame.frame } : {}),
    scratchpadWritten: run.workspace.written.length > 0 || processed.scratchpadText !== undefined,
  });
  return copyWith(after, {
    state: completed.state,
    scratchpad: completed.scratchpad,
    kind: 'completed' as const,
    outcome,
    verify,
    schedule: completed.schedule,
    ...(processed.frame ? { frame: processed.frame } : {}),
    ...(processed.text !== undefined ? { text: processed.text } : {}),
  });
}
