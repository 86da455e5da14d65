/**
 * The types of a turn's telemetry: what it is made from, what it offers the turn, and the tools and
 * scopes it reports on.
 */
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Context, Meter, Tracer } from '@opentelemetry/api';
import type { Observation } from '../spec/index.js';
import type { Clock } from '../util/index.js';
import type { PriceTable, TurnUsage } from './turn-usage.js';

export interface TurnTelemetryOptions {
  /** Defaults to the global tracer named `flowstack` (a no-op until an SDK registers a provider). */
  tracer?: Tracer;
  agentName: string;
  threadId: string;
  turnId: string;
  principal?: string;
  clock: Clock;
  redact: { text(text: string): string; value(value: unknown): unknown };
  /** Receives live progress observations (id 0) as they happen. */
  publish?: (observations: Observation[]) => void;
  /** Whether anyone listens to progress now; none are built while nobody does. */
  wantsProgress?: () => boolean;
  /** Record prompts, tool arguments and results (redacted, capped) as span attributes. Off by default. */
  recordContent?: boolean;
  /** The span the turn nests under; defaults to the active context's span, if any. */
  parent?: Context;
  /**
   * The agent's model: its provider (`gen_ai.provider.name`, which the conventions require on
   * `invoke_agent`) and id. Calls name their own model on their own spans.
   */
  model?: { provider: string; modelId: string };
  /** Where the GenAI client metrics go; defaults to the global meter `flowstack` (a no-op without an SDK). */
  meter?: Meter;
  /** Prices per million tokens by model id: `TurnResult.usage` then carries the cost. */
  prices?: PriceTable;
}

/** An open flow or plan item span. `end` is idempotent. */
export interface TelemetryScope {
  readonly id: string;
  end(result?: { status?: string; error?: unknown }): void;
}

/** A tool as telemetry needs it: an object with a name, a description and an `execute`. */
export interface InstrumentableTool {
  name: string;
  description: string;
  idempotent?: boolean;
  capability?: string;
  execute(input: unknown, context: { callId: string }): unknown;
}

/** One tool execution as telemetry sees it: the tool, its validated input and the call's id. */
export interface ObservedToolCall {
  tool: Omit<InstrumentableTool, 'execute'>;
  input: unknown;
  callId: string;
}

export interface TurnTelemetry {
  /** The model, reporting every call as a `chat` span and as progress. */
  wrapModel(model: LanguageModelV3): LanguageModelV3;
  /**
   * Runs one tool execution, reporting it as an `execute_tool` span and as progress. The tool pipeline
   * calls it around `execute` (`ToolBatchContext.observeExecution`), so the agent's tools are not
   * wrapped anew for every turn.
   */
  observeTool<T>(call: ObservedToolCall, execute: () => Promise<T> | T): Promise<T>;
  /** The tool, reporting every execution as an `execute_tool` span and as progress (`observeTool` inside). */
  wrapTool<T extends InstrumentableTool>(tool: T): T;
  startFlow(flow: { id: string; name: string }): TelemetryScope;
  startPlanItem(item: { id: string; description: string; planId?: string }): TelemetryScope;
  /** What the turn's model calls used so far. */
  usage(): TurnUsage;
  /**
   * Ends the turn span and anything left open under it. The user's message and the reply are recorded
   * on it when content is.
   */
  end(result: TurnTelemetryEnd): void;
}

/** How the turn ended, for its span. */
export interface TurnTelemetryEnd {
  status: string;
  error?: unknown;
  /** The message the turn ran on. */
  input?: string;
  /** The reply it gave. */
  reply?: string;
}
