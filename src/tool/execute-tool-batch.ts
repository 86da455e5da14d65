/**
 * Runs the calls of one model step through the safety pipeline (DESIGN.md §4). Results come back in
 * the order of the calls, and one failing call never loses its siblings' results.
 */
import type { ToolCallRequest, ToolCallResult } from '../spec/index.js';
import { groupCalls } from './internal/group-calls.js';
import { markTaint } from './internal/mark-taint.js';
import type { ToolBatchContext } from './tool-batch-context.js';
import { createToolCallState, type ToolCallState } from './tool-call-state.js';
import { toolDefaults } from './tool-defaults.js';
import { defaultToolPipeline, runPipeline } from './tool-pipeline.js';
import { errorResult } from './tool-results.js';
import type { ToolPipeline } from './tool-stage.js';

export interface ExecuteToolBatchOptions {
  /** Replaces the pipeline (tests, or a pipeline with a stage added). */
  pipeline?: ToolPipeline;
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
export async function executeToolBatch(
  calls: readonly ToolCallRequest[],
  context: ToolBatchContext,
  options: ExecuteToolBatchOptions = {},
): Promise<ToolCallResult[]> {
  const pipeline = options.pipeline ?? defaultToolPipeline;
  const states = calls.map((request) => createToolCallState(request, context));
  const results: ToolCallResult[] = new Array(calls.length);
  const seen = new Set<string>();
  /** The result of the call at `index`: a call id seen before in this step is not run again. */
  const resultOf = async (index: number): Promise<ToolCallResult> => {
    const state = states[index] as ToolCallState;
    const { callId } = state.request;
    if (seen.has(callId))
      return errorResult(
        state,
        'validation_error',
        `Call id '${callId}' appears twice in one step; it ran once.`,
        false,
      );
    seen.add(callId);
    return runPipeline(state, pipeline);
  };
  const limit = Math.max(1, context.maxConcurrency ?? toolDefaults.maxConcurrency);
  for (const group of groupCalls(calls, context.tools)) {
    if (group.length === 1) {
      const index = group[0] as number;
      results[index] = await resultOf(index);
    } else
      await runPool(group, limit, async (index) => {
        results[index] = await resultOf(index);
      });
  }
  markTaint(states, results, context);
  return results;
}

/** Runs `run` on every item, at most `limit` at a time. */
async function runPool(items: readonly number[], limit: number, run: (item: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++] as number);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
