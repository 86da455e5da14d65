/**
 * The react phase's single model call, through the AI SDK model spec directly (`doGenerate` or
 * `doStream`; DESIGN.md §2). Both modes return the same assembled response.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { ModelError } from '../errors/index.js';

export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  /** The argument text exactly as the model produced it. */
  input: string;
}

export interface ModelResponse {
  text: string;
  reasoning: string;
  toolCalls: ModelToolCall[];
  finishReason: string;
  inputTokens: number;
  outputTokens: number;
}

export interface CallModelOptions {
  model: LanguageModelV3;
  prompt: LanguageModelV3Prompt;
  /** Which part of the runtime calls: `predict`, `skill`, `compose` …; scripted models match on it. */
  phase: string;
  flow?: string;
  tools?: LanguageModelV3FunctionTool[];
  responseFormat?: LanguageModelV3CallOptions['responseFormat'];
  stream?: boolean;
  maxOutputTokens?: number;
  signal?: AbortSignal;
  /** Receives text deltas as they stream. */
  onTextDelta?: (delta: string) => void;
}

export async function callModel(options: CallModelOptions): Promise<ModelResponse> {
  const flowstack: Record<string, string> = { phase: options.phase };
  if (options.flow) flowstack.flow = options.flow;
  const call: LanguageModelV3CallOptions = { prompt: options.prompt, providerOptions: { flowstack } };
  if (options.tools && options.tools.length > 0) call.tools = options.tools;
  if (options.responseFormat) call.responseFormat = options.responseFormat;
  if (options.maxOutputTokens) call.maxOutputTokens = options.maxOutputTokens;
  if (options.signal) call.abortSignal = options.signal;
  try {
    return options.stream
      ? await streamModel(options.model, call, options.onTextDelta)
      : await generateModel(options.model, call);
  } catch (error) {
    if (ModelError.isInstance(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ModelError({
      phase: options.phase,
      message: `The model call failed: ${message}`,
      cause: error,
    });
  }
}

async function generateModel(
  model: LanguageModelV3,
  call: LanguageModelV3CallOptions,
): Promise<ModelResponse> {
  const result = await model.doGenerate(call);
  const response = emptyResponse();
  for (const part of result.content) {
    if (part.type === 'text') response.text += part.text;
    else if (part.type === 'reasoning') response.reasoning += part.text;
    else if (part.type === 'tool-call') response.toolCalls.push(toToolCall(part));
  }
  response.finishReason = result.finishReason.unified;
  addUsage(response, result.usage);
  return response;
}

async function streamModel(
  model: LanguageModelV3,
  call: LanguageModelV3CallOptions,
  onTextDelta?: (delta: string) => void,
): Promise<ModelResponse> {
  const { stream } = await model.doStream(call);
  const response = emptyResponse();
  const reader = stream.getReader();
  for (;;) {
    const { done, value: part } = await reader.read();
    if (done) break;
    if (part.type === 'text-delta') {
      response.text += part.delta;
      onTextDelta?.(part.delta);
    } else if (part.type === 'reasoning-delta') response.reasoning += part.delta;
    else if (part.type === 'tool-call') response.toolCalls.push(toToolCall(part));
    else if (part.type === 'finish') {
      response.finishReason = part.finishReason.unified;
      addUsage(response, part.usage);
    } else if (part.type === 'error') {
      throw part.error instanceof Error ? part.error : new Error(String(part.error));
    }
  }
  return response;
}

function toToolCall(part: { toolCallId: string; toolName: string; input: string }): ModelToolCall {
  return { toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
}

function emptyResponse(): ModelResponse {
  return { text: '', reasoning: '', toolCalls: [], finishReason: 'other', inputTokens: 0, outputTokens: 0 };
}

function addUsage(response: ModelResponse, usage: LanguageModelV3Usage): void {
  response.inputTokens += usage.inputTokens.total ?? 0;
  response.outputTokens += usage.outputTokens.total ?? 0;
}
