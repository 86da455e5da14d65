/**
 * A resumed run goes on under the turn id it began in, so that a held call keeps its idempotency key; the
 * journal of that turn already holds the call ids the model used before the suspension. A model in another
 * process — `flowstack approve`, a worker, a restarted server — numbers its calls from the start again
 * (`call_1`, as local OpenAI-compatible servers do), and its new call would be taken for an earlier one
 * ("Call id 'call_1' was already used"). So the model's calls in a resumed invocation carry a suffix that
 * names the resumption — the checkpoint's length, which grows with every step and is the same when the
 * resumption is replayed after a crash — in every process alike. Letters, digits and `_` only, as every
 * provider accepts in a call id.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { ModelResponse } from '../call-model.js';

/** The suffix of a resumed invocation's call ids; none for a run that starts. */
export function resumedCallIdSuffix(
  resume: { messages: readonly LanguageModelV3Message[] } | undefined,
): string | undefined {
  return resume ? `_r${resume.messages.length}` : undefined;
}

/** The response with its tool calls' ids suffixed (unchanged without a suffix or calls). */
export function withCallIdSuffix(response: ModelResponse, suffix: string | undefined): ModelResponse {
  if (suffix === undefined || response.toolCalls.length === 0) return response;
  return {
    ...response,
    toolCalls: response.toolCalls.map((call) => ({ ...call, toolCallId: `${call.toolCallId}${suffix}` })),
  };
}
