/**
 * PEX phase 4 of `executeFlow`: result processing once the skill has run. A suspension, a fallback the
 * flow's hook chooses, an uncertain outcome, a person's refusal the skill gave up on, or a failure ends the
 * execution here; a success goes on to completion with its processed result.
 */
import { transitionDialogue } from '../flow/index.js';
import type { FailedAttempt, SkillLoopEvent } from '../loop/index.js';
import { describeRefusals, type Refusal } from '../respond/index.js';
import type { SkillOutcome } from '../spec/index.js';
import { copyWith } from '../util/index.js';
import type { ExecuteFlowOptions } from './execute-flow-options.js';
import type { ExecutionBase, FlowExecution } from './flow-execution.js';
import { type ProcessedResult, processResult } from './process-result.js';
import type { ReviewedFlow } from './review-and-confirm-slots.js';
import type { FlowSkillRun } from './run-flow-skill.js';

/** A successful skill run with its processed result, ready for completion. */
export interface ProcessedSuccess {
  outcome: Extract<SkillOutcome, { outcome: 'success' }>;
  processed: ProcessedResult;
  after: ExecutionBase;
}

/** Processes the skill's outcome: the execution when it ends here, else the success to complete. */
export function processSkillOutcome(
  options: ExecuteFlowOptions,
  reviewed: ReviewedFlow,
  run: FlowSkillRun,
): { stop: FlowExecution } | { success: ProcessedSuccess } {
  const { state, flow, definition, base } = reviewed;
  const { loop, workspace } = run;
  const after: ExecutionBase = copyWith(base, {
    scratchpad: workspace.scratchpad,
    events: loop.events,
    checkpoint: { messages: loop.messages, state: loop.state },
    ...(loop.validation ? { validation: loop.validation } : {}),
  });
  const { outcome } = loop;
  if (outcome.outcome === 'suspended') return { stop: { ...after, kind: 'suspended', outcome } };
  const target = definition.hooks.fallback?.({ flow, outcome });
  if (target) return { stop: { ...after, kind: 'fallback', target, outcome } };
  if (outcome.outcome === 'uncertain') return { stop: { ...after, kind: 'uncertain', outcome } };
  const refusals = outcome.outcome === 'failure' ? refusalsEndingRun(loop.state.failures) : [];
  if (outcome.outcome === 'failure' && refusals.length > 0) {
    const text = describeRefusals(refusals, (name) => reviewed.check.tools.get(name));
    const declined = transitionDialogue(state, { type: 'invalidate', flowId: flow.id });
    return { stop: { ...after, state: declined, kind: 'declined', outcome, text } };
  }
  const toolRows = lastToolRows(loop.events, definition.tools);
  const processed = processResult({
    spec: definition,
    outcome,
    nextTableId: options.nextTableId,
    ...(toolRows ? { toolRows } : {}),
  });
  if (outcome.outcome === 'failure') {
    const failed = transitionDialogue(transitionDialogue(state, { type: 'invalidate', flowId: flow.id }), {
      type: 'set-flags',
      flags: { hasIssues: true },
    });
    return {
      stop: {
        ...after,
        state: failed,
        kind: 'failed',
        outcome,
        ...(processed.frame ? { frame: processed.frame } : {}),
        ...(processed.text !== undefined ? { text: processed.text } : {}),
      },
    };
  }
  return { success: { outcome, processed, after } };
}

/**
 * The calls people said no to, when a refusal is the run's last failed call: the skill then gave up
 * because of the person's decision, not because something broke after it.
 */
function refusalsEndingRun(failures: readonly FailedAttempt[]): Refusal[] {
  if (failures.at(-1)?.refusal === undefined) return [];
  return failures.flatMap((failure) =>
    failure.refusal
      ? [
          {
            toolName: failure.toolName,
            ...(failure.refusal.reason !== undefined ? { reason: failure.refusal.reason } : {}),
          },
        ]
      : [],
  );
}

/** The `rows` of the last successful call of one of the flow's own tools, if it returned any. */
function lastToolRows(events: readonly SkillLoopEvent[], tools: readonly string[]): unknown[] | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index];
    if (
      event?.type !== 'tool-result' ||
      event.result.status !== 'success' ||
      !tools.includes(event.result.toolName)
    )
      continue;
    const output = event.result.output;
    const rows = output && typeof output === 'object' ? (output as { rows?: unknown }).rows : undefined;
    return Array.isArray(rows) ? rows : undefined;
  }
  return undefined;
}
