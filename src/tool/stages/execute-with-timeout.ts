import { ToolCallError } from '../../errors/index.js';
import type { FeedbackSchema, ToolCallResult, ToolErrorCategory } from '../../spec/index.js';
import { stableHash } from '../../util/index.js';
import {
  abortLazy,
  createExecutionContext,
  createLazyAbort,
  type LazyAbort,
} from '../internal/lazy-abort-signal.js';
import { onAbort } from '../internal/on-abort.js';
import { startTimer } from '../internal/start-timer.js';
import { isToolSuspension } from '../suspend-tool-call.js';
import { idempotencyKeyOf, type ToolCallState } from '../tool-call-state.js';
import type { ToolExecutionContext } from '../tool-definition.js';
import type { ToolStage } from '../tool-pipeline.js';
import { errorResult, retryableByDefault, successResult } from '../tool-results.js';

type Stop = 'timeout' | 'cancelled';
const timeoutReason = new Error('timeout');
const cancelledReason = new Error('cancelled');

/**
 * Runs the tool once, within its timeout, measured on the batch's clock. On timeout (or when the batch
 * is cancelled) the tool's signal is aborted and whatever it returns later is discarded. A thrown
 * `ToolCallError` (or any error with a known `category`) keeps its category; anything else thrown is a
 * `server_error`. Text output starting with `Error:` is taken as the tool reporting a failure, and
 * `suspendToolCall(reason)` as the tool waiting for a human (a `feedback` suspension).
 */
export const executeWithTimeout: ToolStage = (state) => {
  const tool = state.tool;
  if (!tool) return Promise.resolve(errorResult(state, 'not_found', 'No tool was resolved.'));
  if (state.reconciled) {
    state.toolContent = true;
    return Promise.resolve(successResult(state, state.reconciled.output));
  }
  const outer = state.batch.signal;
  if (outer?.aborted)
    return Promise.resolve(errorResult(state, 'timeout', 'The call was cancelled before it ran.', false));
  state.attempts += 1;
  state.toolContent = true;
  state.retryAfterMs = undefined;
  const abort = createLazyAbort();
  // One promise for the race between the tool and its stops, settled by whichever comes first with the
  // call's result itself: no `Promise.race`, no separate promise per stop, no reaction after it to turn the
  // winner into a result, and no handler to swallow a rejection that comes late (a result or rejection
  // after a stop is discarded). Not `async`: while the tool runs, only this promise waits, not a frame.
  let answer!: (result: ToolCallResult) => void;
  const outcome = new Promise<ToolCallResult>((resolve) => {
    answer = resolve;
  });
  let done = false;
  let cancelTimer: (() => void) | undefined;
  let stopWatching: (() => void) | undefined;
  const settle = (settled: Stop | { output: unknown }) => {
    if (done) return;
    done = true;
    cancelTimer?.();
    stopWatching?.();
    let result: ToolCallResult;
    try {
      result = resultOf(state, tool, abort, settled);
    } catch (error) {
      result = thrownResult(state, error);
    }
    answer(result);
  };
  const fail = (error: unknown) => {
    if (done) return;
    done = true;
    cancelTimer?.();
    stopWatching?.();
    answer(thrownResult(state, error));
  };
  cancelTimer = startTimer(state.batch.clock, tool.timeoutMs, () => settle('timeout'));
  // A clock may fire a timer of 0 ms at once: then there is nothing left to watch for.
  if (outer && !done) stopWatching = onAbort(outer, () => settle('cancelled'));
  try {
    const execute = () => Promise.resolve(tool.execute(state.input, contextOf(state, abort)));
    const observe = state.batch.observeExecution;
    const work = observe
      ? observe({ tool, input: state.input, callId: state.request.callId }, execute)
      : execute();
    work.then((output) => settle({ output }), fail);
  } catch (error) {
    fail(error);
  }
  return outcome;
};

function resultOf(
  state: ToolCallState,
  tool: { timeoutMs: number; idempotent: boolean },
  abort: LazyAbort,
  settled: Stop | { output: unknown },
): ToolCallResult {
  if (settled === 'timeout' || settled === 'cancelled') {
    abortLazy(abort, settled === 'timeout' ? timeoutReason : cancelledReason);
    return settled === 'timeout'
      ? errorResult(state, 'timeout', `The tool did not finish within ${tool.timeoutMs} ms.`, tool.idempotent)
      : errorResult(state, 'timeout', 'The call was cancelled.', false);
  }
  const output = settled.output;
  if (isToolSuspension(output)) return feedbackRequest(state, output.reason, output.feedback);
  if (typeof output === 'string' && /^\s*error:/i.test(output)) {
    const message = output.trim().slice(6).trim() || 'The tool reported an error.';
    return errorResult(state, 'server_error', message);
  }
  return successResult(state, output);
}

function contextOf(state: ToolCallState, abort: LazyAbort): ToolExecutionContext {
  return createExecutionContext(
    {
      idempotencyKey: idempotencyKeyOf(state),
      threadId: state.batch.threadId,
      callId: state.request.callId,
      attempt: state.attempts,
    },
    abort,
    state.batch.runScope,
  );
}

const categories = new Set<string>(Object.keys(retryableByDefault));

function thrownResult(state: ToolCallState, error: unknown) {
  if (ToolCallError.isInstance(error)) {
    state.retryAfterMs = error.retryAfterMs;
    return errorResult(
      state,
      error.category,
      error.message,
      error.retryable ?? retryableByDefault[error.category],
    );
  }
  const category = (error as { category?: unknown } | null)?.category;
  const known = typeof category === 'string' && categories.has(category);
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return errorResult(state, known ? (category as ToolErrorCategory) : 'server_error', message);
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
