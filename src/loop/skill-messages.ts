/**
 * Builds the assistant and tool messages of one loop step. Every tool call gets its paired result in
 * the same step, so the transcript never holds an orphaned call (providers reject those).
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { ToolCallResult } from '../spec/index.js';
import type { ModelResponse } from './call-model.js';

export function assistantMessage(response: ModelResponse): LanguageModelV3Message {
  const content: Extract<LanguageModelV3Message, { role: 'assistant' }>['content'] = [];
  if (response.text) content.push({ type: 'text', text: response.text });
  for (const call of response.toolCalls) {
    content.push({
      type: 'tool-call',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: parseLoose(call.input),
    });
  }
  return { role: 'assistant', content };
}

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

/** Arguments as JSON when they parse, else the raw text (malformed arguments stay visible to the model). */
function parseLoose(input: string): unknown {
  try {
    return input.trim() === '' ? {} : JSON.parse(input);
  } catch {
    return input;
  }
}
