/**
 * flowstack: a runtime for LLM task agents with a deterministic skeleton. This is the front door
 * (STYLE.md rule 15): what an agent's author writes against — the agent, flows, domains, tools, stores,
 * redaction, the errors and the public types. Building blocks (the pure cores, phases and stages) are
 * under `flowstack/blocks`; everything else is private (docs/decisions/0051-public-api.md).
 *
 * Every name is listed, never `export *`, so that a new export of a folder does not become public by
 * accident; `npm run api:check` compares this list with `api-report/flowstack.api.md`.
 *
 * @example
 * import { createAgent, createSqliteStore, defineFlow, defineTool } from 'flowstack';
 */

// The types that the options and results above are made of.
export type { A2AAgentReference, A2ADelegationLimits } from './a2a/index.js';
// The agent and its scheduler.
export type {
  Agent,
  AgentFileOptions,
  AgentLimits,
  AgentOptions,
  AgentTelemetryOptions,
  ConversationMessage,
  DeletedThread,
  DeleteThreadOptions,
  ExecutionOptions,
  ResumeOptions,
  RollbackOptions,
  SendOptions,
  SuspensionView,
  ThreadView,
  TurnResult,
  TurnStatus,
  TurnStreamPart,
  WarmUpReport,
} from './agent/index.js';
// The one table of defaults: every bound of a turn, a skill run, a plan (DESIGN.md §5).
export { createAgent, defaultBounds } from './agent/index.js';
export type { FileSnapshotSweep } from './consistency/index.js';
// Errors: every one is a `FlowstackError` with a `code` and `toJSON()`.
export {
  CodeGuardrailError,
  type CodeGuardrailProblem,
  ConfigurationError,
  FileSnapshotError,
  type FileSnapshotErrorReason,
  FlowstackError,
  InputError,
  type InputErrorReason,
  ModelError,
  PlanError,
  type PlanErrorReason,
  type PlanProblem,
  SnapshotError,
  type SnapshotErrorReason,
  StackDepthError,
  SuspensionError,
  type SuspensionErrorReason,
  ThreadBusyError,
  ThreadNotFoundError,
  ToolCallError,
  ToolSourceError,
  VersionConflictError,
} from './errors/index.js';
// Flows and domains.
export {
  type AfterCompleteEffects,
  type DefineFlowOptions,
  type Domain,
  type DomainOptions,
  defineDomain,
  defineFlow,
  type FallbackTarget,
  type FlowDefinition,
  type FlowHooks,
  type FlowScript,
  type FlowScriptContext,
  type InternalFlowRequest,
  type LoadDomainOptions,
  loadDomain,
} from './flow/index.js';
export type { SkillLoopLimits } from './loop/index.js';
export { type ModelEnvironment, type ResolvedModel, resolveModelFromEnv } from './model/index.js';
export type { FastPathRule } from './nlu/index.js';
// Observations, and the logger the runtime writes its own warnings to.
export {
  type ConsoleLike,
  type ConsoleLoggerOptions,
  createConsoleLogger,
  isObservationOf,
  isProgress,
  type ModelPrice,
  type ObservationDataMap,
  type ObservationDataOf,
  type ObservationListener,
  type ObservationOf,
  type ObservedPlanItem,
  type PriceTable,
  type SubscribeObservations,
  type SubscribeOptions,
  type TokenUsage,
  type TurnUsage,
} from './observe/index.js';
export type { PlanOptions } from './plan/index.js';
// Redaction.
export {
  type RedactSecretsOptions,
  type RedactValueOptions,
  redactSecrets,
  redactValue,
} from './redact/index.js';
export type { DisplayFrame } from './respond/index.js';
export {
  createScheduler,
  type InProcessScheduler,
  type InProcessSchedulerOptions,
  type SchedulingAgent,
} from './schedule/index.js';
export type {
  AmbiguityLevel,
  ApprovalLookup,
  ApprovalRequest,
  ApprovalState,
  BlockingToolSpec,
  CapabilityLevel,
  DialogueFlags,
  DisplayType,
  ExecutionConfig,
  FailurePolicy,
  FeedbackSchema,
  FileSnapshotStatus,
  FileSnapshotSummary,
  FileTouchSpec,
  FlowInstance,
  FlowSpec,
  FlowStatus,
  Intent,
  JsonSchema,
  Logger,
  LogLevel,
  LogMethod,
  Observation,
  ObservationType,
  PendingQuestion,
  RateLimitDecision,
  RateLimiter,
  RateLimitRequest,
  RateLimitSpec,
  RecoveryStep,
  RollbackReport,
  ScheduleEntry,
  ScheduleRequest,
  Scheduler,
  SimulationCache,
  SkillFailureCategory,
  SkillOutcome,
  SlotPriority,
  SlotSpec,
  SlotType,
  StateStore,
  SuspensionKind,
  SuspensionRecord,
  SuspensionStatus,
  ThreadSnapshot,
  ToolCallResult,
  ToolError,
  ToolErrorCategory,
  ToolSpec,
} from './spec/index.js';
// Stores.
export {
  createMemoryStore,
  createSqliteStore,
  type MemoryStoreOptions,
  type SqliteStore,
  type SqliteStoreOptions,
  StoreError,
  type StoreErrorReason,
} from './store/index.js';
// Tools: from code, manifest files, MCP servers and AI SDK tool sets; schemas of any library.
export {
  type AiSdkSchemaLike,
  type AiSdkToolLike,
  type AiSdkToolSettings,
  type CapabilityPolicy,
  createModelSimulator,
  createScheduleTool,
  type DefineToolOptions,
  defineTool,
  type LoadManifestOptions,
  loadManifest,
  type McpConnectionStatus,
  type McpHttpServer,
  type McpPromptInfo,
  type McpPromptText,
  type McpSkippedTool,
  type McpSourceOptions,
  type McpStdioServer,
  type McpToolOverride,
  type McpToolSource,
  type McpToolsChange,
  type McpToolsOptions,
  type ModelSimulatorOptions,
  mcpTools,
  type OpenAIAgentsToolLike,
  type OpenAIAgentsToolSettings,
  type SchemaSource,
  type SimulationRequest,
  type Simulator,
  type StandardSchemaLike,
  suspendToolCall,
  type ToolDefinition,
  type ToolExecutionContext,
  type ToolImplementations,
  type ToolSource,
  type ToolSuspension,
  toolsFromAiSdk,
  toolsFromOpenAIAgents,
} from './tool/index.js';
export type { Clock, IdGenerator, RandomSource } from './util/index.js';
