/**
 * Builds the messages the loop adds to a skill's transcript. Every tool call gets its paired result in
 * the same step, so the transcript never holds an orphaned call (providers reject those). Messages the
 * loop writes itself (reflection prompts and summaries, enforcement prompts, results of calls made in
 * text) carry a `flowstack.kind` marker in `providerOptions`, which providers ignore and
 * `cleanContext` reads.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { ToolCallResult } from '../spec/index.js';
import type { ModelResponse } from './call-model.js';

/** What a loop-written message is for. */
export type LoopMessageKind =
  | 'reflection-summary'
  | 'reflection-prompt'
  | 'enforcement'
  | 'revision'
  | 'retry-hint'
  | 'evaluation'
  | 'text-tool-results'
  | 'human-answer';

/** The assistant's step: its text and (unless left out) its tool calls, arguments parsed loosely. */
export function assistantMessage(
  response: Pick<ModelResponse, 'text' | 'toolCalls'>,
  options: { includeToolCalls?: boolean } = {},
): LanguageModelV3Message {
  type Part = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'][number];
  const calls: Part[] =
    options.includeToolCalls === false
      ? []
      : response.toolCalls.map((call) => ({
          type: 'tool-call' as const,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          // The arguments as the react phase read them, else read here.
          input: call.parsed !== undefined ? call.parsed : parseLoose(call.input),
        }));
  const content = response.text
    ? [{ type: 'text' as const, text: response.text } as Part].concat(calls)
    : calls;
  return { role: 'assistant', content };
}

/** One tool message answering every call of a step, in call order; errors as `error-text`. */
export function toolMessage(results: readonly ToolCallResult[]): LanguageModelV3Message {
  return {
    role: 'tool',
    content: results.map((result) => ({
      type: 'tool-result' as const,
      toolCallId: result.callId,
      toolName: result.toolName,
      output:
        result.status === 'success'
          ? { type: 'text' as const, value: result.contextText }
          : { type: 'error-text' as const, value: result.contextText },
    })),
  };
}

/** A user-role note from the loop (not from the user), marked with its kind. */
export function loopNote(kind: LoopMessageKind, text: string): LanguageModelV3Message {
  return { role: 'user', content: [{ type: 'text', text }], providerOptions: { flowstack: { kind } } };
}

/**
 * Results of calls the model made in text (`<skill>` blocks) rather than as native tool calls: a user
 * message with one marked text part per result, since there is no native call to pair them with.
 */
export function textToolResultsMessage(results: readonly ToolCallResult[]): LanguageModelV3Message {
  return {
    role: 'user',
    content: results.map((result) => ({
      type: 'text' as const,
      text: `Result of ${result.toolName} (${result.callId}): ${result.contextText}`,
      providerOptions: { flowstack: { kind: 'tool-result', status: result.status } },
    })),
    providerOptions: { flowstack: { kind: 'text-tool-results' } },
  };
}

/** The loop kind a message was marked with, if any. */
export function loopMessageKind(message: LanguageModelV3Message): string | undefined {
  const kind = message.providerOptions?.flowstack?.kind;
  return typeof kind === 'string' ? kind : undefined;
}

/** Arguments as JSON when they parse, else the raw text (malformed arguments stay visible to the model). */
function parseLoose(input: string): unknown {
  try {
    return input.trim() === '' ? {} : JSON.parse(input);
  } catch {
    return input;
  }
}
