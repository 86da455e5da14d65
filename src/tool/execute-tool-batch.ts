/**
 * Runs the calls of one model step through the safety pipeline (DESIGN.md §4). Results come back in
 * the order of the calls, and one failing call never loses its siblings' results.
 */
import type { ToolCallRequest, ToolCallResult } from '../spec/index.js';
import { groupCalls } from './internal/group-calls.js';
import { auditCall } from './stages/audit-call.js';
import { awaitFeedback } from './stages/await-feedback.js';
import { capResultSize } from './stages/cap-result-size.js';
import { executeWithTimeout } from './stages/execute-with-timeout.js';
import { gateCapability } from './stages/gate-capability.js';
import { journalCall } from './stages/journal-call.js';
import { limitRate } from './stages/limit-rate.js';
import { parseArguments } from './stages/parse-arguments.js';
import { redactResult } from './stages/redact-result.js';
import { replayJournaled } from './stages/replay-journaled.js';
import { requireApproval } from './stages/require-approval.js';
import { resolveTool } from './stages/resolve-tool.js';
import { retryCall } from './stages/retry-call.js';
import { reuseCachedResult } from './stages/reuse-cached-result.js';
import { simulateCall } from './stages/simulate-call.js';
import { snapshotFiles } from './stages/snapshot-files.js';
import { validateInput } from './stages/validate-input.js';
import { validateOutput } from './stages/validate-output.js';
import type { ToolBatchContext } from './tool-batch-context.js';
import { createToolCallState, type ToolCallState } from './tool-call-state.js';
import { toolDefaults } from './tool-defaults.js';
import { runStages, type ToolStage } from './tool-pipeline.js';
import { errorResult } from './tool-results.js';

/**
 * The stages in order, outer first. Before the call they act top-down (resolve → parse → validate →
 * replay a journaled result → audit start → capability gate → approval → cached result → rate limit →
 * simulation → a blocking tool waits for its answer →
 * journal start → snapshot the files it declares → retry → execute); after it bottom-up (validate
 * output → redact → a failure that changed files asks to roll back → journal result →
 * simulation attached → audit complete → cap size). docs/architecture/tool-pipeline.md draws it.
 */
export const defaultToolStages: readonly ToolStage[] = [
  resolveTool,
  parseArguments,
  validateInput,
  capResultSize,
  replayJournaled,
  auditCall,
  gateCapability,
  requireApproval,
  reuseCachedResult,
  limitRate,
  simulateCall,
  awaitFeedback,
  journalCall,
  snapshotFiles,
  redactResult,
  validateOutput,
  retryCall,
  executeWithTimeout,
];

export interface ExecuteToolBatchOptions {
  /** Replaces the stages (tests, or a pipeline with a stage added). */
  stages?: readonly ToolStage[];
}

/**
 * Calls that share a `parallelGroup`, and consecutive calls whose tools are all marked `parallel`, run
 * concurrently (at most `maxConcurrency` at a time); every other call runs alone, in order. After the
 * batch, results of tools that receive untrusted input taint the run (`context.taint`).
 *
 * @example
 * const results = await executeToolBatch(
 *   [{ callId: 'c1', toolName: 'find_flights', input: '{"from":"OSL","to":"LIS"}' }],
 *   { tools: createToolSet([findFlights]), threadId: 't1', turnId: 'turn1', clock: systemClock,
 *     maxContextChars: 1_500, redact: { text: redactSecrets, value: redactValue } },
 * );
 */
export function executeToolBatch(
  calls: readonly ToolCallRequest[],
  context: ToolBatchContext,
  options: ExecuteToolBatchOptions = {},
): Promise<ToolCallResult[]> {
  const stages = options.stages ?? defaultToolStages;
  // The usual step asks for one call: it is run without a frame of this function waiting on it.
  if (calls.length === 1) {
    const state = createToolCallState(calls[0] as ToolCallRequest, context);
    const single = (result: ToolCallResult) => {
      const results = [result];
      markTaint([state], results, context);
      return results;
    };
    // One reaction for the result and for a stage that failed later (the pipeline-failure result).
    let pending: Promise<ToolCallResult>;
    try {
      pending = runStages(stages, state);
    } catch (error) {
      return Promise.resolve(single(pipelineFailure(state, error)));
    }
    return pending.then(single, (error: unknown) => single(pipelineFailure(state, error)));
  }
  return executeCalls(calls, context, stages);
}

async function executeCalls(
  calls: readonly ToolCallRequest[],
  context: ToolBatchContext,
  stages: readonly ToolStage[],
): Promise<ToolCallResult[]> {
  const states = calls.map((request) => createToolCallState(request, context));
  const results: ToolCallResult[] = new Array(calls.length);
  const seen = new Set<string>();
  const runOne = async (index: number): Promise<void> => {
    const state = states[index] as ToolCallState;
    results[index] = await runCall(stages, state, seen);
  };
  const limit = Math.max(1, context.maxConcurrency ?? toolDefaults.maxConcurrency);
  for (const group of groupCalls(calls, context.tools)) {
    if (group.length === 1) {
      // Awaited here rather than through `runOne`: one suspended frame less while the tool runs.
      const index = group[0] as number;
      results[index] = await runCall(stages, states[index] as ToolCallState, seen);
    } else await runPool(group, limit, runOne);
  }
  markTaint(states, results, context);
  return results;
}

function runCall(
  stages: readonly ToolStage[],
  state: ToolCallState,
  seen: Set<string>,
): Promise<ToolCallResult> {
  const { callId } = state.request;
  if (seen.has(callId)) {
    return Promise.resolve(
      errorResult(
        state,
        'validation_error',
        `Call id '${callId}' appears twice in one step; it ran once.`,
        false,
      ),
    );
  }
  seen.add(callId);
  // No async frame of its own: a stage that throws, at once or later, still gives an error result.
  try {
    return runStages(stages, state).catch((error: unknown) => pipelineFailure(state, error));
  } catch (error) {
    return Promise.resolve(pipelineFailure(state, error));
  }
}

function pipelineFailure(state: ToolCallState, error: unknown): ToolCallResult {
  const detail = state.batch.redact.text(error instanceof Error ? error.message : String(error));
  return errorResult(state, 'server_error', `The tool pipeline failed: ${detail}`, false);
}

/** Runs `run` on every item, at most `limit` at a time. */
async function runPool(items: readonly number[], limit: number, run: (item: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++] as number);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Content from a tool that receives untrusted input is now in the context: later batches see it. */
function markTaint(
  states: readonly ToolCallState[],
  results: readonly ToolCallResult[],
  context: ToolBatchContext,
) {
  const taint = context.taint;
  if (!taint) return;
  states.forEach((state, index) => {
    const tool = state.tool;
    if (!tool?.receivesUntrustedInput || !state.toolContent || results[index]?.status === 'suspended') return;
    taint.tainted = true;
    if (!taint.sources.includes(tool.name)) taint.sources.push(tool.name);
  });
}
