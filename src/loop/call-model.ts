/**
 * The react phase's single model call, through the AI SDK model spec directly (`doGenerate` or
 * `doStream`; DESIGN.md §2). Both modes return the same assembled response. `invokeModel` never
 * throws: it says whether the call failed and whether it may be replayed — a streamed call whose
 * output already reached a live consumer is not. `callModel` is the throwing form other layers use.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { ModelError } from '../errors/index.js';

export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  /** The argument text exactly as the model produced it. */
  input: string;
  /** The arguments read as JSON, once the loop has checked that they parse (read-only). */
  parsed?: unknown;
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
  /** More labels for `providerOptions.flowstack` (e.g. the loop's `step`). */
  labels?: Record<string, string>;
  tools?: LanguageModelV3FunctionTool[];
  responseFormat?: LanguageModelV3CallOptions['responseFormat'];
  stream?: boolean;
  maxOutputTokens?: number;
  signal?: AbortSignal;
  /** Receives text deltas as they stream. */
  onTextDelta?: (delta: string) => void;
  /** Receives reasoning (thinking) deltas as they stream. */
  onReasoningDelta?: (delta: string) => void;
  /**
   * Receives a tool call's argument text as it streams; returns whether anything of it reached a live
   * reader (`finish_skill`'s message does), so that the call is not asked again after a failure.
   */
  onToolInputDelta?: (call: { id: string; toolName: string }, delta: string) => boolean;
}

export type ModelCallOutcome =
  | { ok: true; response: ModelResponse }
  | {
      ok: false;
      error: unknown;
      /** Part of the output already went to a live consumer; calling again would repeat it. */
      delivered: boolean;
      /** What the stream produced before it failed. */
      partial: ModelResponse;
    };

/** Calls the model once; failures come back as data. */
export async function invokeModel(options: CallModelOptions): Promise<ModelCallOutcome> {
  const flowstack: Record<string, string> = { ...options.labels, phase: options.phase };
  if (options.flow) flowstack.flow = options.flow;
  const call: LanguageModelV3CallOptions = { prompt: options.prompt, providerOptions: { flowstack } };
  if (options.tools && options.tools.length > 0) call.tools = options.tools;
  if (options.responseFormat) call.responseFormat = options.responseFormat;
  if (options.maxOutputTokens) call.maxOutputTokens = options.maxOutputTokens;
  if (options.signal) call.abortSignal = options.signal;
  const response = emptyResponse();
  if (!options.stream) {
    try {
      readGenerated(await options.model.doGenerate(call), response);
      return { ok: true, response };
    } catch (error) {
      return { ok: false, error, delivered: false, partial: response };
    }
  }
  const progress: StreamProgress = { delivered: false, toolNames: new Map() };
  try {
    const failure = await streamModel(options, call, response, progress);
    if (failure) return { ok: false, error: failure.error, delivered: progress.delivered, partial: response };
    return { ok: true, response };
  } catch (error) {
    return { ok: false, error, delivered: progress.delivered, partial: response };
  }
}

/** Calls the model once; a failure throws a `ModelError` naming the phase. */
export async function callModel(options: CallModelOptions): Promise<ModelResponse> {
  const outcome = await invokeModel(options);
  if (outcome.ok) return outcome.response;
  throw toModelError(options.phase, outcome.error);
}

/** A `ModelError` for a failed call, keeping the original as `cause`. */
export function toModelError(phase: string, error: unknown): ModelError {
  if (ModelError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : describeUnknown(error);
  return new ModelError({ phase, message: `The model call failed: ${message}`, cause: error });
}

/** Assembles a `doGenerate` result into the response. */
function readGenerated(result: LanguageModelV3GenerateResult, response: ModelResponse): void {
  for (const part of result.content) {
    if (part.type === 'text') response.text += part.text;
    else if (part.type === 'reasoning') response.reasoning += part.text;
    else if (part.type === 'tool-call') response.toolCalls.push(toToolCall(part));
  }
  response.finishReason = result.finishReason.unified;
  addUsage(response, result.usage);
}

async function streamModel(
  options: CallModelOptions,
  call: LanguageModelV3CallOptions,
  response: ModelResponse,
  progress: StreamProgress,
): Promise<{ error: unknown } | undefined> {
  const { stream } = await options.model.doStream(call);
  const reader = stream.getReader();
  for (;;) {
    const { done, value: part } = await reader.read();
    if (done) return undefined;
    if (part.type === 'error') {
      await reader.cancel().catch(() => undefined);
      return { error: part.error };
    }
    applyPart(part, response, options, progress);
  }
}

function applyPart(
  part: LanguageModelV3StreamPart,
  response: ModelResponse,
  options: CallModelOptions,
  progress: StreamProgress,
): void {
  if (part.type === 'text-delta') {
    response.text += part.delta;
    if (options.onTextDelta) {
      progress.delivered = true;
      options.onTextDelta(part.delta);
    }
  } else if (part.type === 'reasoning-delta') {
    response.reasoning += part.delta;
    if (options.onReasoningDelta) {
      progress.delivered = true;
      options.onReasoningDelta(part.delta);
    }
  } else if (part.type === 'tool-input-start') progress.toolNames.set(part.id, part.toolName);
  else if (part.type === 'tool-input-delta') {
    const toolName = progress.toolNames.get(part.id);
    if (
      options.onToolInputDelta &&
      toolName !== undefined &&
      options.onToolInputDelta({ id: part.id, toolName }, part.delta)
    )
      progress.delivered = true;
  } else if (part.type === 'tool-call') response.toolCalls.push(toToolCall(part));
  else if (part.type === 'finish') {
    response.finishReason = part.finishReason.unified;
    addUsage(response, part.usage);
  }
}

/** What a streamed call has done so far: whether output reached a live reader, the names of its tool calls. */
interface StreamProgress {
  delivered: boolean;
  toolNames: Map<string, string>;
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

function describeUnknown(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
