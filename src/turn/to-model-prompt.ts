/** The conversation as the model reads it: user and assistant messages, oldest first. */
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import type { ConversationMessage } from './turn-types.js';

export function toModelPrompt(messages: readonly ConversationMessage[]): LanguageModelV3Prompt {
  return messages.map((m) =>
    m.role === 'user'
      ? { role: 'user' as const, content: [{ type: 'text' as const, text: m.text }] }
      : { role: 'assistant' as const, content: [{ type: 'text' as const, text: m.text }] },
  );
}
