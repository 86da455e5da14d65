import { compileSchema } from '../compile-schema.js';
import type { ToolStage } from '../tool-pipeline.js';
import { errorResult } from '../tool-results.js';

/** Checks the parsed arguments against the tool's input schema and lists the problems (up to ten). */
export const validateInput: ToolStage = (state, next) => {
  const tool = state.tool;
  if (!tool) return next(state);
  const verdict = compileSchema(tool.inputSchema)(state.input);
  if (verdict.valid) return next(state);
  const problems = verdict.problems.slice(0, 10).join('; ');
  return Promise.resolve(
    errorResult(state, 'validation_error', `Arguments do not match the input schema: ${problems}.`),
  );
};
