import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from '@ai-sdk/provider';

/** What a scripted call is matched on and described by. */
export interface CallContext {
  phase: string | undefined;
  flow: string | undefined;
  lastUser: string | undefined;
  toolNames: string[];
}

/**
 * Phase and flow from `providerOptions.flowstack`; the last user text and the offered tools' names are
 * read when first asked for. A skill run's prompt ends in tool turns, so finding its last user message
 * walks nearly all of it, on every call, for a field that few steps match on and few tests read.
 */
export class LazyCallContext implements CallContext {
  readonly phase: string | undefined;
  readonly flow: string | undefined;
  readonly #options: LanguageModelV3CallOptions;
  #lastUser: string | undefined;
  #lastUserRead = false;
  #toolNames: string[] | undefined;

  constructor(options: LanguageModelV3CallOptions) {
    const flowstack = options.providerOptions?.flowstack;
    this.phase = typeof flowstack?.phase === 'string' ? flowstack.phase : undefined;
    this.flow = typeof flowstack?.flow === 'string' ? flowstack.flow : undefined;
    this.#options = options;
  }

  get lastUser(): string | undefined {
    if (!this.#lastUserRead) {
      this.#lastUser = readLastUserText(this.#options.prompt);
      this.#lastUserRead = true;
    }
    return this.#lastUser;
  }

  get toolNames(): string[] {
    this.#toolNames ??= (this.#options.tools ?? []).map((tool) => tool.name);
    return this.#toolNames;
  }

  /** Every field as a plain object (for an error that outlives the call). */
  read(): CallContext {
    return { phase: this.phase, flow: this.flow, lastUser: this.lastUser, toolNames: this.toolNames };
  }
}

/** Reads phase and flow from `providerOptions.flowstack`, the last user text and the offered tools. */
export function readCallContext(options: LanguageModelV3CallOptions): CallContext {
  return new LazyCallContext(options).read();
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
