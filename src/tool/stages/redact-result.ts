import type { ToolCallResult } from '../../spec/index.js';
import type { Redactor } from '../tool-batch-context.js';
import type { ToolCallState } from '../tool-call-state.js';

/**
 * Removes secrets from the tool's output, error text and context text before anything journals,
 * audits, caps or shows them (DESIGN.md invariant 8). Redaction runs before any truncation, so no cut
 * can leave half a secret that no pattern recognises. What a guard answered with (a refusal, a replayed
 * or cached result) was redacted when it was made.
 */
export function redactResult(state: ToolCallState, result: ToolCallResult): ToolCallResult {
  return state.executed ? redactToolResult(result, state.batch.redact) : result;
}

function redactToolResult(result: ToolCallResult, redact: Redactor): ToolCallResult {
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
