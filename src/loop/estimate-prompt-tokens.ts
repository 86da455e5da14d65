/**
 * Prompt size, for measuring what context cleaning saves. Characters are counted the way a model reads
 * them (text, reasoning, tool inputs and results); tokens are estimated at four characters each, the
 * same estimate the scripted model reports, so figures from tests and benchmarks agree.
 */
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';

/** Characters of a prompt as a model reads them. */
export function measurePromptChars(prompt: LanguageModelV3Prompt): number {
  let characters = 0;
  for (const message of prompt) {
    if (message.role === 'system') {
      characters += message.content.length;
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning') characters += part.text.length;
      else if (part.type === 'tool-call') characters += part.toolName.length + measureJson(part.input);
      else if (part.type === 'tool-result') characters += part.toolName.length + measureJson(part.output);
    }
  }
  return characters;
}

/** About one token per four characters. */
export function estimatePromptTokens(prompt: LanguageModelV3Prompt): number {
  return Math.ceil(measurePromptChars(prompt) / 4);
}

function measureJson(value: unknown): number {
  return typeof value === 'string' ? value.length : (JSON.stringify(value)?.length ?? 0);
}
