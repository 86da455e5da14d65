import { rawFinishReasons, type StepOutput } from './build-step-output.js';
import type { TokenCounts } from './count-tokens.js';
import { splitText } from './split-text.js';

/** What every response of one request shares. */
export interface ResponseHeader {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
}

/** OpenAI's `usage` object. */
export function toWireUsage(counts: TokenCounts) {
  return {
    prompt_tokens: counts.input,
    completion_tokens: counts.output,
    total_tokens: counts.input + counts.output,
    completion_tokens_details: { reasoning_tokens: counts.reasoning },
  };
}

/** A non-streamed `chat.completion` body; `content` is null when the model only calls tools. */
export function toChatCompletion(header: ResponseHeader, output: StepOutput, counts: TokenCounts) {
  const toolCalls = output.toolCalls.map((call) => ({
    id: call.toolCallId,
    type: 'function' as const,
    function: { name: call.toolName, arguments: call.input },
  }));
  const message = {
    role: 'assistant' as const,
    content: output.text ?? null,
    ...(output.reasoning === undefined ? {} : { reasoning_content: output.reasoning }),
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
  };
  return {
    ...header,
    object: 'chat.completion',
    choices: [{ index: 0, message, finish_reason: rawFinishReasons[output.finishReason] }],
    usage: toWireUsage(counts),
  };
}

/**
 * The `chat.completion.chunk` objects of a streamed answer, as OpenAI sends them: the role, reasoning
 * and content deltas, each tool call as id and name first then argument fragments, a chunk with the
 * finish reason, and, when asked for with `stream_options.include_usage`, a last chunk with empty
 * `choices` and the usage.
 */
export function toChatCompletionChunks(
  header: ResponseHeader,
  output: StepOutput,
  options: { counts: TokenCounts; includeUsage: boolean },
): object[] {
  const chunk = (delta: object, finishReason: string | null = null) => ({
    ...header,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const chunks: object[] = [chunk({ role: 'assistant' })];
  for (const piece of splitText(output.reasoning ?? '')) chunks.push(chunk({ reasoning_content: piece }));
  for (const piece of splitText(output.text ?? '')) chunks.push(chunk({ content: piece }));
  output.toolCalls.forEach((call, index) => {
    const start = {
      index,
      id: call.toolCallId,
      type: 'function',
      function: { name: call.toolName, arguments: '' },
    };
    chunks.push(chunk({ tool_calls: [start] }));
    for (const piece of splitText(call.input))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, rawFinishReasons[output.finishReason]));
  if (options.includeUsage) {
    chunks.push({
      ...header,
      object: 'chat.completion.chunk',
      choices: [],
      usage: toWireUsage(options.counts),
    });
  }
  return chunks;
}
