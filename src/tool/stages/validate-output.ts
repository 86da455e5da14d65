import { compileSchema } from '../compile-schema.js';
import { errorResult, type ToolStage } from '../tool-pipeline.js';

/** Checks a successful output against the tool's output schema before anyone consumes it. */
export const validateOutput: ToolStage = async (state, next) => {
  const result = await next(state);
  const schema = state.tool?.outputSchema;
  if (result.status !== 'success' || schema === undefined) return result;
  const verdict = compileSchema(schema)(result.output);
  if (verdict.valid) return result;
  const problems = verdict.problems.slice(0, 10).join('; ');
  return errorResult(
    state,
    'server_error',
    `The tool's output does not match its output schema: ${problems}.`,
    false,
  );
};
