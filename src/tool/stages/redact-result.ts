import type { ToolCallResult } from '../../spec/index.js';
import type { ToolStage } from '../tool-pipeline.js';

/** Removes secrets from the output and the error text before anything stores or shows them. */
export const redactResult: ToolStage = async (state, next) => {
  const result = await next(state);
  const { redact } = state.batch;
  const redacted: ToolCallResult =
    result.status === 'success'
      ? { ...result, output: redact.value(result.output), contextText: redact.text(result.contextText) }
      : result.status === 'error'
        ? {
            ...result,
            error: { ...result.error, message: redact.text(result.error.message) },
            contextText: redact.text(result.contextText),
          }
        : { ...result, contextText: redact.text(result.contextText) };
  return redacted;
};
