import type { ToolCallResult, ToolError } from '../../spec/index.js';
import { backoffDelayMs } from '../../util/index.js';
import type { ToolCallState } from '../tool-call-state.js';
import { toolDefaults } from '../tool-defaults.js';
import type { ToolDefinition } from '../tool-definition.js';
import type { Execute, StageAnswer } from '../tool-stage.js';

/**
 * Runs a failed call again, with exponential backoff on the batch's clock (1 s, 2 s, 4 s … at most
 * 30 s, each less a random share of up to half of it: `backoffDelayMs`; longer when the tool said
 * `retryAfterMs`), at most `maxRetries` times after the first.
 * Only the tool's own failures are retried (not a guard's refusal), only retryable ones, and only for
 * idempotent tools, except a `rate_limit` refusal, which means the other side did nothing. A timed-out
 * non-idempotent call is never run again. The same idempotency key is used for every attempt.
 * Cancelling the batch ends the wait.
 */
export function retryCall(
  state: ToolCallState,
  first: ToolCallResult,
  execute: Execute,
): StageAnswer<ToolCallResult> {
  const tool = state.tool;
  if (!state.executed || !tool || first.status !== 'error' || !mayRetry(tool, first.error)) return first;
  return retryWhileAllowed(state, tool, first, execute);
}

async function retryWhileAllowed(
  state: ToolCallState,
  tool: ToolDefinition,
  first: ToolCallResult,
  execute: Execute,
): Promise<ToolCallResult> {
  const { clock, signal, retry, random, logger } = state.batch;
  const base = retry?.baseDelayMs ?? toolDefaults.retryBaseDelayMs;
  const max = retry?.maxDelayMs ?? toolDefaults.retryMaxDelayMs;
  let result: ToolCallResult = first;
  while (result.status === 'error' && state.attempts <= tool.maxRetries && mayRetry(tool, result.error)) {
    const backoff = backoffDelayMs({
      attempt: state.attempts,
      baseMs: base,
      maxMs: max,
      ...(random ? { random } : {}),
    });
    const wanted = state.retryAfterMs ?? 0;
    if (wanted > max) break;
    const delayMs = Math.max(backoff, wanted);
    logger?.info(
      {
        threadId: state.batch.threadId,
        turnId: state.batch.turnId,
        tool: tool.name,
        callId: state.request.callId,
        attempt: state.attempts,
        delayMs,
        category: result.error.category,
      },
      'A tool call failed; retrying after a wait.',
    );
    try {
      await clock.sleep(delayMs, signal);
    } catch {
      break;
    }
    result = await execute(state);
  }
  return state.attempts > 1 ? withAttempts(result, state.attempts) : result;
}

function mayRetry(tool: ToolDefinition, error: ToolError): boolean {
  if (!error.retryable) return false;
  return tool.idempotent || error.category === 'rate_limit';
}

function withAttempts(result: ToolCallResult, attempts: number): ToolCallResult {
  if (result.status !== 'error') return result;
  return { ...result, error: { ...result.error, attempts } };
}
