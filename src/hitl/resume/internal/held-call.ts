/**
 * The held call of an answered question goes through the journal stage of the tool pipeline: run once
 * when people allow it, or with their answer journaled as its result, always in the suspended run's own
 * turn so that it keeps its idempotency key.
 */
import type { SuspensionRecord, ToolCallResult } from '../../../spec/index.js';
import { resumeToolCall, type ToolBatchContext, type ToolCallResumption } from '../../../tool/index.js';
import type { ContinueSuspendedRunOptions } from '../continue-suspended-run-options.js';

/** Runs a held call through the whole pipeline, approved for exactly these arguments or allowed to run again. */
export async function runHeldCall(
  options: ContinueSuspendedRunOptions,
  question: SuspensionRecord,
  how: Exclude<ToolCallResumption, { kind: 'answered' }>,
): Promise<ToolCallResult> {
  return resumeToolCall(heldCall(question), how, runBatch(options));
}

/** Records a person's answer as the call's journaled result, so the journal tells what happened. */
export async function journalAnswer(
  options: ContinueSuspendedRunOptions,
  question: SuspensionRecord,
  result: ToolCallResult,
): Promise<void> {
  await resumeToolCall(heldCall(question), { kind: 'answered', result }, runBatch(options));
}

function heldCall(question: SuspensionRecord) {
  return {
    callId: question.callId as string,
    toolName: question.toolName as string,
    idempotencyKey: question.idempotencyKey,
    argsHash: question.argsHash,
  };
}

/** The batch of the suspended run: its own turn id, so that a held call keeps its idempotency key. */
function runBatch(options: ContinueSuspendedRunOptions): ToolBatchContext {
  return { ...options.batch, turnId: options.run.runTurnId, tools: options.tools };
}
