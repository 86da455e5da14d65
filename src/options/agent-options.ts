/**
 * The agent's options (`createAgent`) and the options of each call (`send`, `resume`, `deleteThread`).
 * Their defaults are one table (`defaultBounds`, DESIGN.md §5); they are checked in `check-agent-options.ts`
 * and made into one configuration in `agent-config.ts`.
 */

import type { Meter, Tracer } from '@opentelemetry/api';
import type { A2AAgentReference, A2ADelegationLimits } from '../a2a/index.js';
import type { AgentFileOptions } from '../consistency/index.js';
import type { SupportedLanguageModel } from '../model/index.js';
import type { FastPathRule } from '../nlu/index.js';
import type { PriceTable } from '../observe/index.js';
import type { PlanOptions } from '../plan/index.js';
import type { ExecutionOptions, FlowSpec, Intent, Logger, StateStore } from '../spec/index.js';
import type { ToolBatchContext, ToolDefinition, ToolSource } from '../tool/index.js';
import type { AgentLimits } from '../turn/index.js';
import type { Clock, IdGenerator, RandomSource } from '../util/index.js';

export interface AgentOptions {
  /**
   * An AI SDK language model: specification v3 (AI SDK 6, `@ai-sdk/*` 3.x) or v4 (AI SDK 7). Any other
   * version is a `ConfigurationError` naming it and what to install.
   */
  model: SupportedLanguageModel;
  flows: readonly FlowSpec[];
  /**
   * Tools, and tool sources whose tools may change while the agent runs (what `mcpTools` returns): a
   * source is read again when each turn opens, so the model is offered what its server offers now.
   */
  tools?: readonly (ToolDefinition | ToolSource)[];
  /** Where threads live. Defaults to SQLite at `.flowstack/flowstack.db`. */
  store?: StateStore;
  /** Fast-path routing rules, tried before the model. */
  rules?: readonly FastPathRule[];
  /** The base persona every prompt starts with. */
  persona?: string;
  /** What the domain is about; a block of every prompt (DESIGN.md §2 prompt composition). */
  domain?: string;
  /** The domain's own intents besides plan, converse and internal (default read, prepare, transform, schedule). */
  intents?: readonly Intent[];
  /** Default user preferences; what a thread learns overrides them. */
  preferences?: Readonly<Record<string, unknown>>;
  /**
   * Use the model's streaming interface (`doStream`) instead of `doGenerate`; the reply and thinking then
   * reach the thread's live progress subscribers as they are written (`text-delta`, `thoughts-delta`).
   */
  stream?: boolean;
  /**
   * How the model calls tools. `native` (default): as the provider's tool calls. `text`, for a model
   * without native tool calling: no tool is sent with the request; the skill prompt lists the tools and
   * the call syntax, `<skill>name(arg="value")</skill>` (calls that may run together inside
   * `<parallel>…</parallel>`), and the calls are read from the model's text. Routing and the other
   * structured calls are unchanged (they ask for JSON, which such models write as text).
   */
  toolCalling?: 'native' | 'text';
  clock?: Clock;
  ids?: IdGenerator;
  /**
   * Draws the jitter of every retry wait (model and tool retries, docs/decisions/0087); `Math.random`
   * when left out. Injected as the clock is: `() => 0` gives the plain exponential waits.
   */
  random?: RandomSource;
  /**
   * Where the agent's own diagnostics go: a pino logger, `createConsoleLogger({ level })` or any object
   * with `debug`/`info`/`warn`/`error(record, message)`. Warnings: a model call retried, a tool call
   * timed out, a lease that could not be renewed or was lost, an observation listener that threw,
   * background flows that could not be saved. `info`: a tool call retried. Every record carries the
   * thread and turn (and flow, tool where known), a failure under `err`, all redacted. Default: warnings
   * and errors to standard error, nothing else.
   */
  logger?: Logger;
  /** Redaction of secrets; defaults to `redactSecrets` / `redactValue`. */
  redact?: { text(text: string): string; value(value: unknown): unknown };
  /**
   * The turn's bounds, for every turn of this agent (defaults: `defaultBounds.limits`, DESIGN.md §5). An
   * unknown name or a value that is not a number ≥ 0 is a `ConfigurationError`.
   */
  limits?: Partial<AgentLimits>;
  /**
   * Services and policies of the tool safety pipeline. By default the agent keeps one in-memory rate
   * limiter and simulates `restricted` and `privileged` calls with its own model (cached in memory);
   * `simulate: undefined` here turns simulation off.
   */
  toolPipeline?: Partial<
    Pick<
      ToolBatchContext,
      | 'rateLimiter'
      | 'rateLimits'
      | 'rateLimitScope'
      | 'simulate'
      | 'simulationTimeoutMs'
      | 'resultCache'
      | 'capabilities'
      | 'approvals'
      | 'maxConcurrency'
      | 'retry'
    >
  >;
  /** OpenTelemetry spans for turns, flows, model and tool calls (GenAI semantic conventions). */
  telemetry?: AgentTelemetryOptions;
  /**
   * Plans (seeds 001, 002): `true` or settings to route multi-step requests to the built-in `plan` flow.
   * A domain flow with intent `plan` enables them too and replaces the built-in one.
   */
  plan?: boolean | Partial<PlanOptions>;
  /**
   * Execution settings for every skill run of this agent — the skill loop's bounds (both columns, or per
   * column under `simple` / `complex`) and how plan items run: `{ maxIterations: 8, maxTurns: 60 }`.
   * Threads (`send({ threadExecution })`) and calls (`send({ execution })`) override it, the call winning.
   */
  execution?: ExecutionOptions;
  /** Remote A2A agents that plan items may delegate to with `delegate_to_agent` (when `execution.delegation`). */
  a2a?: { agents: readonly A2AAgentReference[]; limits?: Partial<A2ADelegationLimits> };
  /**
   * File snapshots (seed 004): the folder tools that declare `touches` may change (default the working
   * folder) and where snapshots are kept (default `.flowstack/snapshots`).
   */
  files?: AgentFileOptions;
}

export interface AgentTelemetryOptions {
  /** Defaults to the global tracer `flowstack`, a no-op until an OpenTelemetry SDK is registered. */
  tracer?: Tracer;
  /** `gen_ai.agent.name` of turn spans; defaults to `flowstack`. */
  agentName?: string;
  /**
   * Record prompts (`gen_ai.input.messages`, `gen_ai.system_instructions`), answers
   * (`gen_ai.output.messages`), tool definitions in full, tool arguments and results (all redacted and
   * capped) as span attributes. Off by default.
   */
  recordContent?: boolean;
  /**
   * Where `gen_ai.client.token.usage` and `gen_ai.client.operation.duration` go; defaults to the global
   * meter `flowstack`, a no-op until an OpenTelemetry metrics SDK is registered.
   */
  meter?: Meter;
  /**
   * Prices per million tokens by model id (`{ 'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1 } }`):
   * `TurnResult.usage.cost` then says what a turn cost, in the table's currency.
   */
  prices?: PriceTable;
}

/** Answering a suspension (DESIGN.md invariant 6): the feedback becomes the suspended call's result. */
export interface ResumeOptions {
  threadId: string;
  /** One of the thread's open questions (`TurnResult.suspensions`, `readThread().suspensions`). */
  suspensionId: string;
  /** Checked against the question's feedback schema: `{ decision: 'approve' }`, a text, a choice … */
  feedback: unknown;
  /** Who answers; must own the thread. */
  principal?: string;
  signal?: AbortSignal;
  /** Stream the model calls of the turn that carries on, as `SendOptions.stream`. */
  stream?: boolean;
}

export interface SendOptions {
  threadId: string;
  text: string;
  principal?: string;
  signal?: AbortSignal;
  /**
   * Stream this turn's model calls even when the agent's do not (`AgentOptions.stream`): the reply and
   * thinking reach the thread's live subscribers (`subscribe` with `progress`, the server's event
   * streams) as `text-delta` and `thoughts-delta` progress while they are written.
   */
  stream?: boolean;
  /**
   * An id of this request, stable across redeliveries (a queue's job id, an HTTP idempotency key): a
   * request that already ran returns its answer again without running; one whose process died mid-turn
   * is resumed under the same turn id, so nothing it completed runs twice.
   */
  requestId?: string;
  /** Execution settings for this call only, over the thread's and the agent's (`AgentOptions.execution`). */
  execution?: ExecutionOptions;
  /** Execution settings saved with the thread, for this and later calls, over the agent's. */
  threadExecution?: ExecutionOptions;
}

/** Deleting a thread (`agent.deleteThread`). */
export interface DeleteThreadOptions {
  threadId: string;
  /** Who asks; must own the thread (another principal's thread is not found, as an unknown one). */
  principal?: string;
}
