import type { ToolCallResult } from '../../spec/index.js';
import { compileSchema } from '../compile-schema.js';
import type { ToolCallState } from '../tool-call-state.js';
import { errorResult } from '../tool-results.js';

/**
 * Checks the tool's successful output against its output schema before anyone consumes it; an output
 * that breaks it is a `server_error` (not retried: the tool answered, wrongly) listing the problems.
 * A result reused from the journal or the cache was checked when the tool gave it.
 */
export function validateOutput(state: ToolCallState, result: ToolCallResult): ToolCallResult {
  const schema = state.tool?.outputSchema;
  if (!state.executed || result.status !== 'success' || schema === undefined) return result;
  const verdict = compileSchema(schema)(result.output);
  if (verdict.valid) return result;
  const problems = verdict.problems.slice(0, 10).join('; ');
  return errorResult(
    state,
    'server_error',
    `The tool's output does not match its output schema: ${problems}.`,
    false,
  );
}
