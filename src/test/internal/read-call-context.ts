import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from '@ai-sdk/provider';

/** What a scripted call is matched on and described by. */
export interface CallContext {
  phase: string | undefined;
  flow: string | undefined;
  lastUser: string | undefined;
  toolNames: string[];
}

/** Reads phase and flow from `providerOptions.flowstack`, the last user text and the offered tools. */
export function readCallContext(options: LanguageModelV3CallOptions): CallContext {
  const flowstack = options.providerOptions?.flowstack;
  return {
    phase: typeof flowstack?.phase === 'string' ? flowstack.phase : undefined,
    flow: typeof flowstack?.flow === 'string' ? flowstack.flow : undefined,
    lastUser: readLastUserText(options.prompt),
    toolNames: (options.tools ?? []).map((tool) => tool.name),
  };
}

/** The text parts of the last user message joined by newlines; `undefined` when there is none. */
export function readLastUserText(prompt: LanguageModelV3Prompt): string | undefined {
  for (let index = prompt.length - 1; index >= 0; index--) {
    const message = prompt[index];
    if (message?.role !== 'user') continue;
    return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  }
  return undefined;
}

/** Every character of the prompt a model would read: text, reasoning, tool inputs and results. */
export function measurePrompt(prompt: LanguageModelV3Prompt): number {
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

function measureJson(value: unknown): number {
  return typeof value === 'string' ? value.length : (JSON.stringify(value)?.length ?? 0);
}
