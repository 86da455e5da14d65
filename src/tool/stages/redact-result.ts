import type { ToolCallResult } from '../../spec/index.js';
import { afterStage, type ToolStage } from '../tool-pipeline.js';

/**
 * Removes secrets from the output, the error text and the context text before anything journals,
 * audits, caps or shows them (DESIGN.md invariant 8). Redaction runs before any truncation, so no cut
 * can leave half a secret that no pattern recognises.
 */
export const redactResult: ToolStage = afterStage((state, result) =>
  redactToolResult(result, state.batch.redact),
);

function redactToolResult(result: ToolCallResult, redact: Parameters<ToolStage>[0]['batch']['redact']) {
  if (result.status === 'success') {
    const output = redact.value(result.output);
    // A string output is its own context text: redact it once.
    const contextText =
      typeof result.output === 'string' && result.contextText === result.output && typeof output === 'string'
        ? output
        : redact.text(result.contextText);
    return { ...result, output, contextText };
  }
  if (result.status === 'error') {
    return {
      ...result,
      error: { ...result.error, message: redact.text(result.error.message) },
      contextText: redact.text(result.contextText),
    };
  }
  return { ...result, reason: redact.text(result.reason), contextText: redact.text(result.contextText) };
}
