/**
 * Runs the calls read by `parseSkillCalls`: the readable ones through `executeToolBatch`, the
 * unreadable ones answered with a validation error telling the model how to write the call. Results
 * keep the order of the calls in the text. (The skill loop does the same through its own seam.)
 */
import type { ToolCallRequest, ToolCallResult } from '../spec/index.js';
import { type IdGenerator, randomIdGenerator } from '../util/index.js';
import { type ExecuteToolBatchOptions, executeToolBatch } from './execute-tool-batch.js';
import type { ParsedSkillCall } from './parse-skill-calls.js';
import type { ToolBatchContext } from './tool-batch-context.js';

export interface ExecuteSkillCallsOptions extends ExecuteToolBatchOptions {
  /** Ids for calls that carry none; unique within the turn. Default: random ids. */
  ids?: IdGenerator;
}

export async function executeSkillCalls(
  calls: readonly ParsedSkillCall[],
  context: ToolBatchContext,
  options: ExecuteSkillCallsOptions = {},
): Promise<ToolCallResult[]> {
  const ids = options.ids ?? randomIdGenerator;
  const withIds = calls.map((call) => ({ ...call, callId: call.callId ?? ids('call') }));
  const requests: ToolCallRequest[] = withIds.flatMap((call) => ('problem' in call ? [] : [call]));
  const ran = await executeToolBatch(requests, context, options);
  let next = 0;
  return withIds.map((call) =>
    'problem' in call ? unreadableResult(call, context) : (ran[next++] as ToolCallResult),
  );
}

function unreadableResult(
  call: Extract<ParsedSkillCall, { problem: string }> & { callId: string },
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
