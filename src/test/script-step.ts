import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';

/** The finish reasons a script can ask for; the unified V3 values. */
export type ScriptFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

/** Token counts a step reports instead of the estimate (about one token per four characters). */
export interface ScriptUsage {
  inputTokens?: number;
  outputTokens?: number;
  /** Of `inputTokens`, those served from the provider's prompt cache (default 0). */
  cacheReadTokens?: number;
  /** Of `inputTokens`, those written to the provider's prompt cache (default 0). */
  cacheWriteTokens?: number;
}

/** One tool call the model makes. `input` is serialized with `JSON.stringify`. */
export interface ScriptToolCall {
  toolName: string;
  input: unknown;
  /** Defaults to a deterministic `call_<n>`, counted per model (or per server). */
  callId?: string;
}

/**
 * When a step may answer a call. Every given field must match; a step without `match` answers any
 * call. `phase` and `flow` compare with `providerOptions.flowstack`, which the runtime sets on every
 * model call.
 */
export interface ScriptStepMatch {
  phase?: string;
  flow?: string;
  /** The text of the last user message: a string matches as a substring, a RegExp by `test`. */
  lastUser?: string | RegExp;
  /** Any other condition on the call options (tools offered, response format, system prompt …). */
  prompt?: (options: LanguageModelV3CallOptions) => boolean;
}

/**
 * One answer of a scripted model. Steps are tried in script order; the first unconsumed step whose
 * `match` matches answers the call and is consumed, unless it `repeat`s.
 *
 * @example
 * ```ts
 * const steps: ScriptStep[] = [
 *   { match: { phase: 'predict' }, json: { flow: 'book_flight' }, label: 'predict' },
 *   { match: { phase: 'skill' }, toolCalls: [{ toolName: 'search', input: { to: 'PAR' } }] },
 *   { match: { phase: 'skill' }, text: 'Found 3 flights.' },
 * ];
 * ```
 */
export interface ScriptStep {
  match?: ScriptStepMatch;
  /** Assistant text. */
  text?: string;
  /** Reasoning emitted before the text. */
  reasoning?: string;
  toolCalls?: ScriptToolCall[];
  /** Structured output: emitted as the text `JSON.stringify(json)`. Not together with `text`. */
  json?: unknown;
  /**
   * The exact argument text of the first tool call, replacing its serialized `input`; for tests of
   * malformed arguments. Needs `toolCalls`.
   */
  rawToolInput?: string;
  usage?: ScriptUsage;
  /** Defaults to `tool-calls` when the step calls tools, else `stop`. */
  finishReason?: ScriptFinishReason;
  /**
   * The call fails with this value. `doGenerate` and `doStream` reject with it, except that a
   * streamed step that also has output streams that output first and then an `error` part
   * (a failure in the middle of a stream).
   */
  error?: unknown;
  /**
   * Computes the output from the call (for demo models that must answer any input): its fields
   * override the step's own `text`, `json`, `toolCalls` … for this call.
   */
  respond?: (options: LanguageModelV3CallOptions) => ScriptStepOutput;
  /** Answer every matching call instead of being consumed by the first. */
  repeat?: boolean;
  /** A name shown in `ScriptExhaustedError` messages and in `calls`. */
  label?: string;
}

/** The output fields a `respond` function may return. */
export type ScriptStepOutput = Pick<
  ScriptStep,
  'text' | 'json' | 'reasoning' | 'toolCalls' | 'rawToolInput' | 'usage' | 'finishReason'
>;
