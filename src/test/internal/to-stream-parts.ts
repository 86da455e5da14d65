import type {
  LanguageModelV3Content,
  LanguageModelV3ResponseMetadata,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { type StepOutput, toV3FinishReason } from './build-step-output.js';
import { splitText } from './split-text.js';

/** The `doGenerate` content of a step: reasoning, then text, then tool calls. */
export function toContent(output: StepOutput): LanguageModelV3Content[] {
  const content: LanguageModelV3Content[] = [];
  if (output.reasoning !== undefined) content.push({ type: 'reasoning', text: output.reasoning });
  if (output.text !== undefined) content.push({ type: 'text', text: output.text });
  for (const call of output.toolCalls) content.push({ type: 'tool-call', ...call });
  return content;
}

/**
 * The `doStream` parts of a step in the order real providers send them: `stream-start`,
 * `response-metadata`, reasoning and text as start / deltas / end, each tool call as input start /
 * deltas / end followed by the complete `tool-call`, then `finish`. With `error`, an `error` part
 * comes before `finish`, as providers report a failure in the middle of a stream.
 */
export function toStreamParts(options: {
  output: StepOutput;
  usage: LanguageModelV3Usage;
  metadata: LanguageModelV3ResponseMetadata;
  error?: unknown;
}): LanguageModelV3StreamPart[] {
  const { output } = options;
  const parts: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', ...options.metadata },
  ];
  if (output.reasoning !== undefined) {
    const id = 'reasoning-0';
    parts.push({ type: 'reasoning-start', id });
    for (const delta of splitText(output.reasoning)) parts.push({ type: 'reasoning-delta', id, delta });
    parts.push({ type: 'reasoning-end', id });
  }
  if (output.text !== undefined) {
    const id = 'text-0';
    parts.push({ type: 'text-start', id });
    for (const delta of splitText(output.text)) parts.push({ type: 'text-delta', id, delta });
    parts.push({ type: 'text-end', id });
  }
  for (const call of output.toolCalls) {
    const id = call.toolCallId;
    parts.push({ type: 'tool-input-start', id, toolName: call.toolName });
    for (const delta of splitText(call.input)) parts.push({ type: 'tool-input-delta', id, delta });
    parts.push({ type: 'tool-input-end', id }, { type: 'tool-call', ...call });
  }
  if (options.error !== undefined) parts.push({ type: 'error', error: options.error });
  parts.push({ type: 'finish', usage: options.usage, finishReason: toV3FinishReason(output) });
  return parts;
}
