/**
 * The AI SDK's prompt, answer and tools in the shapes the GenAI conventions ask for: messages of `role`
 * and `parts` (`gen_ai.input.messages`, `gen_ai.output.messages`), system instructions as a list of
 * parts apart from the chat history (`gen_ai.system_instructions`), and tool definitions
 * (`gen_ai.tool.definitions`). Backends (Langfuse, Phoenix, Datadog …) read these shapes; the AI SDK's
 * own they show as an opaque string.
 */
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
} from '@ai-sdk/provider';

export type GenAiPart =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown }
  | { type: 'uri'; modality: string; mime_type: string; uri: string }
  | { type: 'file'; mime_type: string; modality: string; name?: string };

export interface GenAiMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  parts: GenAiPart[];
}

export interface GenAiOutputMessage extends GenAiMessage {
  finish_reason: string;
}

/** How text and values are made safe for a span: the redactor and the size cap. */
export interface ContentFilter {
  text(text: string): string;
  value(value: unknown): unknown;
}

/** The prompt split as the conventions want it: system messages apart, the rest in order. */
export function toGenAiInput(
  prompt: LanguageModelV3Prompt,
  filter: ContentFilter,
): { systemInstructions: GenAiPart[]; messages: GenAiMessage[] } {
  const systemInstructions: GenAiPart[] = [];
  const messages: GenAiMessage[] = [];
  for (const message of prompt) {
    if (message.role === 'system') {
      systemInstructions.push({ type: 'text', content: filter.text(message.content) });
      continue;
    }
    const parts: GenAiPart[] = [];
    for (const part of message.content) {
      if (part.type === 'text' || part.type === 'reasoning')
        parts.push({ type: part.type, content: filter.text(part.text) });
      else if (part.type === 'file') parts.push(filePart(part.mediaType, part.data, part.filename));
      else if (part.type === 'tool-call')
        parts.push({
          type: 'tool_call',
          id: part.toolCallId,
          name: part.toolName,
          arguments: filter.value(part.input),
        });
      else if (part.type === 'tool-result')
        parts.push({
          type: 'tool_call_response',
          id: part.toolCallId,
          response: resultValue(part.output, filter),
        });
    }
    messages.push({ role: message.role, parts });
  }
  return { systemInstructions, messages };
}

/** The answer of one call as the one choice it is. */
export function toGenAiOutput(
  content: readonly LanguageModelV3Content[],
  finishReason: string,
  filter: ContentFilter,
): GenAiOutputMessage[] {
  const parts: GenAiPart[] = [];
  for (const part of content) {
    if (part.type === 'text' || part.type === 'reasoning')
      parts.push({ type: part.type, content: filter.text(part.text) });
    else if (part.type === 'tool-call')
      parts.push({
        type: 'tool_call',
        id: part.toolCallId,
        name: part.toolName,
        arguments: filter.value(parseInput(part.input)),
      });
    else if (part.type === 'file') parts.push(filePart(part.mediaType, part.data));
  }
  return [{ role: 'assistant', parts, finish_reason: toGenAiFinishReason(finishReason) }];
}

/**
 * The tools a call offers. Only `type` and `name` unless content is recorded: the conventions advise
 * against the other fields by default, since they make every span large.
 */
export function toGenAiToolDefinitions(
  tools: LanguageModelV3CallOptions['tools'],
  withDetails: boolean,
): Record<string, unknown>[] {
  return (tools ?? []).map((tool) => {
    if (tool.type === 'provider') return { type: tool.id, name: tool.name };
    if (!withDetails) return { type: 'function', name: tool.name };
    const definition: Record<string, unknown> = { type: 'function', name: tool.name };
    if (tool.description !== undefined) definition.description = tool.description;
    definition.parameters = tool.inputSchema;
    return definition;
  });
}

const finishReasons: Readonly<Record<string, string>> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content_filter',
  'tool-calls': 'tool_call',
  error: 'error',
};

/** The AI SDK's unified finish reason as the conventions spell it; one they do not name stays as it is. */
export function toGenAiFinishReason(reason: string): string {
  return Object.hasOwn(finishReasons, reason) ? (finishReasons[reason] as string) : reason;
}

/** A file is described, never copied into a span: its bytes could be megabytes. */
function filePart(mediaType: string, data: unknown, name?: string): GenAiPart {
  const modality =
    mediaType.split('/')[0] === 'application' ? 'document' : (mediaType.split('/')[0] ?? 'document');
  if (data instanceof URL) return { type: 'uri', modality, mime_type: mediaType, uri: data.href };
  return name !== undefined
    ? { type: 'file', mime_type: mediaType, modality, name }
    : { type: 'file', mime_type: mediaType, modality };
}

function resultValue(output: LanguageModelV3ToolResultOutput, filter: ContentFilter): unknown {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return filter.text(output.value);
    case 'json':
    case 'error-json':
      return filter.value(output.value);
    case 'execution-denied':
      return { denied: true, ...(output.reason !== undefined ? { reason: filter.text(output.reason) } : {}) };
    case 'content':
      return output.value.map((item) =>
        item.type === 'text' ? filter.text(item.text) : { type: item.type },
      );
  }
}

/** A tool call's input arrives as JSON text; a backend shows an object better. */
function parseInput(input: string): unknown {
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}
