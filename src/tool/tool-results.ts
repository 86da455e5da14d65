/**
 * The three kinds of `ToolCallResult` as the stages build them. The model reads `contextText`, so an
 * error names the tool and says what to fix.
 */
import type { ToolCallResult, ToolError, ToolErrorCategory } from '../spec/index.js';
import type { ToolCallState } from './tool-call-state.js';

/** A success result whose context text is the output as JSON (or the string itself). */
export function successResult(state: ToolCallState, output: unknown): ToolCallResult {
  return {
    status: 'success',
    callId: state.request.callId,
    toolName: state.request.toolName,
    output,
    contextText: toContextText(output),
  };
}

/** The text of an output as the model reads it: a string as it is, anything else as JSON. */
export function toContextText(output: unknown): string {
  if (typeof output === 'string') return output;
  try {
    return JSON.stringify(output) ?? 'null';
  } catch {
    return String(output);
  }
}

/** Which categories may succeed when tried again (a tool or stage may say otherwise). */
export const retryableByDefault: Readonly<Record<ToolErrorCategory, boolean>> = {
  validation_error: false,
  auth_error: false,
  not_found: false,
  rate_limit: true,
  timeout: true,
  server_error: true,
};

/** An error result. */
export function errorResult(
  state: ToolCallState,
  category: ToolErrorCategory,
  message: string,
  retryable = retryableByDefault[category],
): ToolCallResult {
  const error: ToolError = { category, message, retryable };
  return {
    status: 'error',
    callId: state.request.callId,
    toolName: state.request.toolName,
    error,
    contextText: `Error (${category}) from tool '${displayName(state)}': ${message}`,
  };
}

/**
 * The called name as it can be shown to the model: a resolved tool's own name; otherwise what the
 * model sent, at most 80 characters, control characters escaped, secrets redacted.
 */
export function displayName(state: ToolCallState): string {
  if (state.tool) return state.tool.name;
  const name = state.request.toolName;
  const short = name.length > 80 ? `${name.slice(0, 80)}…` : name;
  return state.batch.redact.text(JSON.stringify(short).slice(1, -1));
}

/** A call that waits for a human's approval before it runs; the durability layer completes it. */
export function approvalRequest(
  state: ToolCallState,
  options: { reason: string; idempotencyKey: string; argsHash: string },
): ToolCallResult {
  return {
    status: 'suspended',
    kind: 'approval',
    callId: state.request.callId,
    toolName: state.request.toolName,
    reason: options.reason,
    argsHash: options.argsHash,
    idempotencyKey: options.idempotencyKey,
    contextText: `The call to '${state.request.toolName}' waits for a human's approval: ${options.reason}`,
  };
}
