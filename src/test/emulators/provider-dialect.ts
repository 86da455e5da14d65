/**
 * What a provider emulator needs to know of one provider's wire format: the route, the request rules,
 * how a request reads for the script, and how an answer is written (a body, or server-sent events).
 */
import type { ScriptToolCall } from '../script-step.js';

/** One answer of an emulated model. */
export interface EmulatorReply {
  text?: string;
  /**
   * Structured output, written as its JSON text. When the request asks for structured output, the
   * emulator first keeps only what the schema has room for, as a model under constrained decoding does.
   */
  json?: unknown;
  toolCalls?: ScriptToolCall[];
  /** The model declines: OpenAI's `refusal`, Anthropic's `stop_reason: "refusal"`. */
  refusal?: string;
  /** Defaults to a tool-call finish when there are tool calls, else a normal stop. */
  finishReason?: 'stop' | 'length' | 'content-filter';
}

/** A request as the script reads it, whatever the provider. */
export interface EmulatedCall {
  /** The request body as sent. */
  body: Record<string, unknown>;
  /** The schema of the structured output asked for, if any. */
  schema?: Record<string, unknown>;
  /** The name of the structured output asked for (`route`, `plan`, `synthesis` …). */
  schemaName?: string;
  /** The system prompt. */
  system: string;
  /** Whether the last message carries tool results: the model is answering after its tools ran. */
  afterToolResult: boolean;
  /**
   * The tool the request forces for structured output (`@ai-sdk/anthropic`'s `json` tool for models
   * without native structured output): a `json` reply is then that tool's call, as the model answers.
   */
  jsonToolName?: string;
  /** Whether the provider constrains the output to `schema` (strict mode, Claude's structured outputs). */
  constrained: boolean;
  /** The function tools offered. */
  toolNames: string[];
  /** The text of the last user message. */
  lastUser: string;
  stream: boolean;
}

/** A script entry: a fixed reply, or one computed from the call (e.g. in the shape the schema asks). */
export type EmulatorScriptEntry = EmulatorReply | ((call: EmulatedCall) => EmulatorReply);

/** A reply made ready for the wire: ids given, JSON written, finish reason settled. */
export interface EmulatedOutput {
  text: string;
  toolCalls: { callId: string; toolName: string; input: string }[];
  refusal?: string;
  finish: 'stop' | 'length' | 'tool-calls' | 'content-filter';
}

/** One server-sent event; `event` is the SSE event name where the provider sends one. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

export interface ProviderDialect {
  /** The provider's name in messages. */
  name: string;
  /** The POST route under the base URL, e.g. `/v1/chat/completions`. */
  path: string;
  /** Prefix of generated tool call ids. */
  callIdPrefix: string;
  /** The first broken request rule, or `undefined` when the request is valid. */
  check(body: Record<string, unknown>): string | undefined;
  describe(body: Record<string, unknown>): EmulatedCall;
  respond(output: EmulatedOutput, id: string, model: string): unknown;
  stream(output: EmulatedOutput, id: string, model: string): SseEvent[];
  /** The line that ends a stream, for providers that send one (`[DONE]`). */
  streamEnd?: string;
  /** The provider's error body. */
  errorBody(status: number, message: string): unknown;
}
