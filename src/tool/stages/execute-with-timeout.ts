import { describeThrown, readThrownField, ToolCallError } from '../../errors/index.js';
import type { FeedbackSchema, ToolCallResult, ToolErrorCategory } from '../../spec/index.js';
import { runWithinDeadline, stableHash, type WorkAbort } from '../../util/index.js';
import { isToolSuspension } from '../suspend-tool-call.js';
import { ToolCallContext } from '../tool-call-context.js';
import { idempotencyKeyOf, type ToolCallState } from '../tool-call-state.js';
import type { ToolDefinition } from '../tool-definition.js';
import { errorResult, retryableByDefault, successResult } from '../tool-results.js';

/**
 * Runs the tool once, within its timeout, measured on the batch's clock (the shared deadline helper,
 * `runWithinDeadline`). On timeout, or when the batch is cancelled, the tool's signal is aborted and
 * whatever it returns later is discarded. A thrown `ToolCallError` (or any error with a known `category`)
 * keeps its category; anything else thrown is a `server_error`. Text output starting with `Error:` is
 * taken as the tool reporting a failure, and `suspendToolCall(reason)` as the tool waiting for a human
 * (a `feedback` suspension). A call whose outcome its tool's `reconcile` found is answered with that.
 */
export async function executeWithTimeout(state: ToolCallState): Promise<ToolCallResult> {
  const { tool, batch } = state;
  if (!tool) return errorResult(state, 'not_found', 'No tool was resolved.');
  if (state.reconciled) {
    state.toolContent = true;
    return successResult(state, state.reconciled.output);
  }
  if (batch.signal?.aborted)
    return errorResult(state, 'timeout', 'The call was cancelled before it ran.', false);
  state.attempts += 1;
  state.toolContent = true;
  state.retryAfterMs = undefined;
  const outcome = await runWithinDeadline({
    clock: batch.clock,
    deadline: batch.clock.now() + tool.timeoutMs,
    signal: batch.signal,
    deadlineReason: timedOut,
    stopReason: cancelled,
    work: (abort) => runTool(state, tool, abort),
  });
  switch (outcome.status) {
    case 'done':
      try {
        return resultOf(state, outcome.value);
      } catch (error) {
        return thrownResult(state, error);
      }
    case 'failed':
      return thrownResult(state, outcome.error);
    case 'deadline':
      batch.logger?.warn(
        {
          threadId: batch.threadId,
          turnId: batch.turnId,
          tool: tool.name,
          callId: state.request.callId,
          attempt: state.attempts,
          timeoutMs: tool.timeoutMs,
        },
        'A tool call timed out.',
      );
      return errorResult(
        state,
        'timeout',
        `The tool did not finish within ${tool.timeoutMs} ms.`,
        tool.idempotent,
      );
    case 'stopped':
      return errorResult(state, 'timeout', 'The call was cancelled.', false);
  }
}

const timedOut = () => new Error('timeout');
const cancelled = () => new Error('cancelled');

/** One attempt of the tool, inside the batch's execution observer when it has one. */
async function runTool(state: ToolCallState, tool: ToolDefinition, abort: WorkAbort): Promise<unknown> {
  const { batch, request } = state;
  const context = new ToolCallContext(
    {
      idempotencyKey: idempotencyKeyOf(state),
      threadId: batch.threadId,
      callId: request.callId,
      attempt: state.attempts,
    },
    abort,
    batch.runScope,
  );
  // A tool with its own parser gets the parser's output; validation always ran before execution.
  const input = 'toolInput' in state ? state.toolInput : state.input;
  const observe = batch.observeExecution;
  if (!observe) return tool.execute(input, context);
  return observe({ tool, input: state.input, callId: request.callId }, async () =>
    tool.execute(input, context),
  );
}

function resultOf(state: ToolCallState, output: unknown): ToolCallResult {
  if (isToolSuspension(output)) return feedbackRequest(state, output.reason, output.feedback);
  if (typeof output === 'string' && /^\s*error:/i.test(output)) {
    const message = output.trim().slice(6).trim() || 'The tool reported an error.';
    return errorResult(state, 'server_error', message);
  }
  return successResult(state, output);
}

const categories = new Set<string>(Object.keys(retryableByDefault));

function thrownResult(state: ToolCallState, error: unknown): ToolCallResult {
  if (isToolCallError(error)) {
    state.retryAfterMs = error.retryAfterMs;
    return errorResult(
      state,
      error.category,
      error.message,
      error.retryable ?? retryableByDefault[error.category],
    );
  }
  // Anything may be thrown; reading it must not throw a second time (describeThrown never does).
  const category = readThrownField(error, 'category');
  const known = typeof category === 'string' && categories.has(category);
  return errorResult(state, known ? (category as ToolErrorCategory) : 'server_error', describeThrown(error));
}

function isToolCallError(error: unknown): error is ToolCallError {
  try {
    return ToolCallError.isInstance(error);
  } catch {
    return false;
  }
}

/** A call whose tool waits for a human's answer; whoever resumes it completes it with that answer. */
function feedbackRequest(state: ToolCallState, reason: string, feedback?: FeedbackSchema): ToolCallResult {
  return {
    status: 'suspended',
    kind: 'feedback',
    callId: state.request.callId,
    toolName: state.request.toolName,
    reason,
    argsHash: stableHash(state.input),
    idempotencyKey: idempotencyKeyOf(state),
    contextText: reason,
    ...(feedback ? { feedback } : {}),
  };
}
