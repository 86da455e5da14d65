/**
 * The transcript of a suspended skill run's checkpoint, as the resume reads and rewrites it: the
 * arguments the model gave a held call, and the tool messages with each settled call's result in place
 * of its suspended one.
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import type { ToolCallResult } from '../../spec/index.js';

/** The settled results replace the suspended ones; success as text, anything else as error text. */
export function patchResults(
  message: Extract<LanguageModelV3Message, { role: 'tool' }>,
  settled: ReadonlyMap<string, ToolCallResult>,
): LanguageModelV3Message {
  return {
    ...message,
    content: message.content.map((part) => {
      const result = part.type === 'tool-result' ? settled.get(part.toolCallId) : undefined;
      if (!result || part.type !== 'tool-result') return part;
      return {
        ...part,
        output:
          result.status === 'success'
            ? { type: 'text' as const, value: result.contextText }
            : { type: 'error-text' as const, value: result.contextText },
      };
    }),
  };
}

/** The parsed arguments of call `callId` in the assistant messages (`{}` when absent or unreadable). */
export function argumentsOf(messages: readonly LanguageModelV3Message[], callId: string): unknown {
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content)
      if (part.type === 'tool-call' && part.toolCallId === callId)
        return typeof part.input === 'string' ? safeParse(part.input) : part.input;
  }
  return {};
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
