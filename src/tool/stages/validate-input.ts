import type { ToolCallResult } from '../../spec/index.js';
import { compileSchema } from '../compile-schema.js';
import type { ToolCallState } from '../tool-call-state.js';
import { errorResult } from '../tool-results.js';

/** Checks the parsed arguments against the tool's input schema and lists the problems (up to ten). */
export function validateInput(state: ToolCallState): ToolCallResult | undefined {
  const tool = state.tool;
  if (!tool) return undefined;
  const verdict = compileSchema(tool.inputSchema)(state.input);
  if (verdict.valid) return undefined;
  const problems = verdict.problems.slice(0, 10).join('; ');
  return errorResult(state, 'validation_error', `Arguments do not match the input schema: ${problems}.`);
}
