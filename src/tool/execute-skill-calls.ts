/**
 * Runs the calls read by `parseSkillCalls`: the well-formed ones through `executeToolBatch`, the
 * malformed ones answered with a validation error telling the model how to write the call. Results
 * keep the order of the calls in the text.
 */
import type { ToolCallResult } from '../spec/index.js';
import { type ExecuteToolBatchOptions, executeToolBatch } from './execute-tool-batch.js';
import type { ParsedSkillCall } from './parse-skill-calls.js';
import type { ToolBatchContext } from './tool-batch-context.js';

export async function executeSkillCalls(
  calls: readonly ParsedSkillCall[],
  context: ToolBatchContext,
  options: ExecuteToolBatchOptions = {},
): Promise<ToolCallResult[]> {
  const requests = calls.flatMap((c) => (c.ok ? [c.request] : []));
  const ran = await executeToolBatch(requests, context, options);
  let next = 0;
  return calls.map((c) => (c.ok ? (ran[next++] as ToolCallResult) : malformedResult(c, context)));
}

function malformedResult(
  call: Extract<ParsedSkillCall, { ok: false }>,
  context: ToolBatchContext,
): ToolCallResult {
  const problem = context.redact.text(call.problem);
  const source = context.redact.text(call.source);
  return {
    status: 'error',
    callId: call.callId,
    toolName: call.toolName,
    error: { category: 'validation_error', message: problem, retryable: false },
    contextText:
      `Error (validation_error) in the skill call ${JSON.stringify(source)}: ${problem}. ` +
      'Write a call as <skill>tool_name(name="text", count=3, flag=true)</skill>.',
  };
}
