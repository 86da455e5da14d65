/**
 * Runs the calls of one model step through the safety pipeline. Results come back in the order of the
 * calls, and one failing call never loses its siblings' results.
 */
import type { ToolCallRequest, ToolCallResult } from '../spec/index.js';
import { capResultSize } from './stages/cap-result-size.js';
import { executeWithTimeout } from './stages/execute-with-timeout.js';
import { journalCall } from './stages/journal-call.js';
import { parseArguments } from './stages/parse-arguments.js';
import { redactResult } from './stages/redact-result.js';
import { resolveTool } from './stages/resolve-tool.js';
import { validateInput } from './stages/validate-input.js';
import { validateOutput } from './stages/validate-output.js';
import { errorResult, runStages, type ToolBatchContext, type ToolStage } from './tool-pipeline.js';

/** The stages in order (DESIGN.md §4); outer stages first, the executing stage last. */
export const defaultToolStages: readonly ToolStage[] = [
  resolveTool,
  parseArguments,
  validateInput,
  capResultSize,
  journalCall,
  redactResult,
  validateOutput,
  executeWithTimeout,
];

export interface ExecuteToolBatchOptions {
  stages?: readonly ToolStage[];
}

/** Consecutive calls that share a `parallelGroup` run concurrently; all others run one after another. */
export async function executeToolBatch(
  calls: readonly ToolCallRequest[],
  context: ToolBatchContext,
  options: ExecuteToolBatchOptions = {},
): Promise<ToolCallResult[]> {
  const stages = options.stages ?? defaultToolStages;
  const runOne = async (request: ToolCallRequest): Promise<ToolCallResult> => {
    const state = { request, batch: context };
    try {
      return await runStages(stages, state);
    } catch (error) {
      return errorResult(
        state,
        'server_error',
        `The tool pipeline failed: ${context.redact.text(String(error))}`,
        false,
      );
    }
  };
  const results: ToolCallResult[] = [];
  for (const group of groupCalls(calls)) {
    results.push(
      ...(group.length === 1
        ? [await runOne(group[0] as ToolCallRequest)]
        : await Promise.all(group.map(runOne))),
    );
  }
  return results;
}

function groupCalls(calls: readonly ToolCallRequest[]): ToolCallRequest[][] {
  const groups: ToolCallRequest[][] = [];
  for (const call of calls) {
    const last = groups.at(-1);
    if (last && call.parallelGroup !== undefined && last[0]?.parallelGroup === call.parallelGroup)
      last.push(call);
    else groups.push([call]);
  }
  return groups;
}
