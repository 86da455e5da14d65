/**
 * The safety pipeline of one tool call (DESIGN.md §4), read top to bottom: checks, guards, one execute,
 * transforms, each a plain loop over stages that live one to a file under `stages/`. Stages that begin
 * something before the call (an audit row, a journal row, a cache lookup, a simulation, a file snapshot)
 * record it on the call's state, and their transform finishes it — for every call that got that far,
 * whoever answered it. docs/architecture/tool-pipeline.md draws the whole pipeline.
 */
import { messageOfThrown } from '../errors/index.js';
import type { ToolCallResult } from '../spec/index.js';
import { completeAudit, startAudit } from './stages/audit-call.js';
import { awaitFeedback } from './stages/await-feedback.js';
import { capResultSize } from './stages/cap-result-size.js';
import { executeWithTimeout } from './stages/execute-with-timeout.js';
import { gateCapability } from './stages/gate-capability.js';
import { finishJournal, startJournal } from './stages/journal-call.js';
import { limitRate } from './stages/limit-rate.js';
import { parseArguments } from './stages/parse-arguments.js';
import { redactResult } from './stages/redact-result.js';
import { replayJournaled } from './stages/replay-journaled.js';
import { requireApproval } from './stages/require-approval.js';
import { resolveTool } from './stages/resolve-tool.js';
import { retryCall } from './stages/retry-call.js';
import { cacheResult, reuseCachedResult } from './stages/reuse-cached-result.js';
import { attachSimulation, startSimulation } from './stages/simulate-call.js';
import { settleFileChanges, snapshotFiles } from './stages/snapshot-files.js';
import { validateInput } from './stages/validate-input.js';
import { validateOutput } from './stages/validate-output.js';
import type { ToolCallState } from './tool-call-state.js';
import { errorResult } from './tool-results.js';
import type { ToolPipeline } from './tool-stage.js';

/**
 * The stages in the order they run. Where they differ from the drawing in DESIGN.md §4, an invariant
 * decides: a journaled result is replayed before any gate sees the call again (invariant 5); the audit row
 * is begun before the gate, so that refused calls are on record; the result is redacted before the
 * journal stores it (invariant 8), and audited before the context cut, so that the record is of the
 * whole result.
 */
export const defaultToolPipeline: ToolPipeline = {
  checks: [resolveTool, parseArguments, validateInput],
  guards: [
    replayJournaled,
    startAudit,
    gateCapability,
    requireApproval,
    reuseCachedResult,
    limitRate,
    startSimulation,
    awaitFeedback,
    startJournal,
    snapshotFiles,
  ],
  execute: executeWithTimeout,
  transforms: [
    retryCall,
    validateOutput,
    redactResult,
    settleFileChanges,
    finishJournal,
    attachSimulation,
    cacheResult,
    completeAudit,
    capResultSize,
  ],
};

/**
 * Runs one call through `pipeline` and always answers. The first check or guard that answers stops its row;
 * a call that passes them all runs the tool once (`execute`); every answer after the checks then goes
 * through the transforms. A stage that throws (a defect) gives the call a redacted `server_error` result,
 * so that one broken call never loses its siblings' results.
 */
export async function runPipeline(
  state: ToolCallState,
  pipeline: ToolPipeline = defaultToolPipeline,
): Promise<ToolCallResult> {
  try {
    // A stage's answer is awaited only when it is a promise: most stages answer at once, and the
    // pipeline runs for every call (docs/decisions/0064).
    for (const check of pipeline.checks) {
      const answer = check(state);
      const refusal = answer instanceof Promise ? await answer : answer;
      if (refusal) return refusal;
    }
    let result: ToolCallResult | undefined;
    for (const guard of pipeline.guards) {
      const answer = guard(state);
      result = answer instanceof Promise ? await answer : answer;
      if (result) break;
    }
    if (!result) {
      state.executed = true;
      result = await pipeline.execute(state);
    }
    for (const transform of pipeline.transforms) {
      const answer = transform(state, result, pipeline.execute);
      result = answer instanceof Promise ? await answer : answer;
    }
    return result;
  } catch (error) {
    const detail = state.batch.redact.text(messageOfThrown(error));
    return errorResult(state, 'server_error', `The tool pipeline failed: ${detail}`, false);
  }
}
