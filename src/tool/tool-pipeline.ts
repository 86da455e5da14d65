/**
 * The safety pipeline as an ordered list of middleware (DESIGN.md §4). Each stage gets the call's state
 * and `next`; it may answer itself (an error result, a reused result) or pass on and post-process what
 * the inner stages return. Stages never throw: every outcome is a `ToolCallResult`.
 */
import type {
  StateStore,
  ToolCallRequest,
  ToolCallResult,
  ToolError,
  ToolErrorCategory,
} from '../spec/index.js';
import type { Clock } from '../util/index.js';
import type { ToolDefinition, ToolSet } from './tool-definition.js';

/** What every call of one batch shares. */
export interface ToolBatchContext {
  tools: ToolSet;
  threadId: string;
  /** The turn the calls belong to; part of every idempotency key. */
  turnId: string;
  clock: Clock;
  /** Journal and audit go here when given. */
  store?: StateStore;
  principal?: string;
  /** Cancels every call of the batch. */
  signal?: AbortSignal;
  /** Characters of one result that enter the model context (head + tail). */
  maxContextChars: number;
  /** Redacts secrets before anything is stored or shown to the model (DESIGN.md invariant 8). */
  redact: { text(text: string): string; value(value: unknown): unknown };
}

export interface ToolCallState {
  request: ToolCallRequest;
  batch: ToolBatchContext;
  tool?: ToolDefinition;
  input?: unknown;
}

export type ToolStage = (
  state: ToolCallState,
  next: (state: ToolCallState) => Promise<ToolCallResult>,
) => Promise<ToolCallResult>;

/** Runs `stages` in order around one call. The last stage must answer without calling `next`. */
export function runStages(stages: readonly ToolStage[], state: ToolCallState): Promise<ToolCallResult> {
  const dispatch = (index: number, current: ToolCallState): Promise<ToolCallResult> => {
    const stage = stages[index];
    if (!stage)
      return Promise.resolve(
        errorResult(current, 'server_error', 'The tool pipeline has no executing stage.'),
      );
    return stage(current, (nextState) => dispatch(index + 1, nextState));
  };
  return dispatch(0, state);
}

/**
 * The call's idempotency key: stable across retries, resumes and approvals of the same call
 * (DESIGN.md invariant 5), and never shared by two calls of one thread.
 */
export function idempotencyKeyOf(state: ToolCallState): string {
  return `${state.batch.threadId}:${state.batch.turnId}:${state.request.callId}`;
}

/** A success result whose context text is the output as JSON (or the string itself). */
export function successResult(state: ToolCallState, output: unknown): ToolCallResult {
  const contextText = typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null');
  return {
    status: 'success',
    callId: state.request.callId,
    toolName: state.request.toolName,
    output,
    contextText,
  };
}

const retryableByDefault: Record<ToolErrorCategory, boolean> = {
  validation_error: false,
  auth_error: false,
  not_found: false,
  rate_limit: true,
  timeout: true,
  server_error: true,
};

/** An error result; the model reads `contextText`, so it names the tool and says what to fix. */
export function errorResult(
  state: ToolCallState,
  category: ToolErrorCategory,
  message: string,
  retryable = retryableByDefault[category],
): ToolCallResult {
  const error: ToolError = { category, message, retryable };
  const contextText = `Error (${category}) from tool '${state.request.toolName}': ${message}`;
  return {
    status: 'error',
    callId: state.request.callId,
    toolName: state.request.toolName,
    error,
    contextText,
  };
}
