export { type ApproveConfirmedCallsOptions, approveConfirmedCalls } from './approve-confirmed-calls.js';
export { compileSchema, type SchemaValidator } from './compile-schema.js';
export { createMemoryRateLimiter, type MemoryRateLimiterOptions } from './create-memory-rate-limiter.js';
export {
  createMemorySimulationCache,
  type MemorySimulationCacheOptions,
} from './create-memory-simulation-cache.js';
export { createModelSimulator, type ModelSimulatorOptions } from './create-model-simulator.js';
export { createScheduleTool } from './create-schedule-tool.js';
export { type DefineToolOptions, defineTool } from './define-tool.js';
export { type ExecuteSkillCallsOptions, executeSkillCalls } from './execute-skill-calls.js';
export { type ExecuteToolBatchOptions, executeToolBatch } from './execute-tool-batch.js';
export type { CallAssessment, RiskLevel } from './internal/assess-call.js';
export { checkAgentTools } from './internal/describe-foreign-tool.js';
export {
  type LoadManifestOptions,
  loadManifest,
  readManifest,
  type ToolImplementations,
} from './load-manifest.js';
export {
  type McpApprovalPolicy,
  type McpToolFields,
  type McpToolHints,
  mapMcpAnnotations,
  mcpHintDefaults,
} from './mcp/map-mcp-annotations.js';
export type { McpConnectionStatus } from './mcp/mcp-connection-status.js';
export type { McpPromptInfo, McpPromptText } from './mcp/mcp-prompts.js';
export type {
  McpHttpServer,
  McpSkippedTool,
  McpSourceOptions,
  McpStdioServer,
  McpToolOverride,
  McpToolsChange,
  McpToolsOptions,
  McpTrust,
} from './mcp/mcp-server-options.js';
export { type McpToolSource, mcpTools } from './mcp/mcp-tools.js';
export {
  type ParsedSkillCall,
  type ParsedSkillText,
  type ParseSkillCallsOptions,
  parseSkillCalls,
} from './parse-skill-calls.js';
export { prepareToolSchemas } from './prepare-tool-schemas.js';
export {
  type AiSdkSchemaLike,
  type ReadSchema,
  readSchema,
  type SchemaSource,
  type StandardSchemaLike,
} from './read-schema.js';
export {
  createReadToolResultTool,
  type ReadToolResultOptions,
  readToolResult,
  type StoredToolResult,
} from './read-tool-result.js';
export { resultText } from './result-text.js';
export { type HeldToolCall, resumeToolCall, type ToolCallResumption } from './resume-tool-call.js';
export { isToolSuspension, suspendToolCall, type ToolSuspension } from './suspend-tool-call.js';
export {
  type AnsweredCalls,
  addTaintSource,
  type CapabilityPolicy,
  createFreshJournal,
  createTaintState,
  type ExecutionObserver,
  type FreshJournal,
  type Redactor,
  type SimulationRequest,
  type Simulator,
  type TaintSource,
  type TaintState,
  type ToolBatchContext,
  taintFromTranscript,
} from './tool-batch-context.js';
export { runScopeOf } from './tool-call-context.js';
export { argsHashOf, createToolCallState, idempotencyKeyOf, type ToolCallState } from './tool-call-state.js';
export { toolDefaults } from './tool-defaults.js';
export {
  createToolSet,
  type ToolDefinition,
  type ToolExecutionContext,
  type ToolSet,
} from './tool-definition.js';
export { defaultToolPipeline, runPipeline } from './tool-pipeline.js';
export {
  approvalRequest,
  errorResult,
  retryableByDefault,
  successResult,
  toContextText,
} from './tool-results.js';
export { isToolSource, type ToolSource } from './tool-source.js';
export type { Execute, Guard, ToolPipeline, Transform } from './tool-stage.js';
export { type AiSdkToolLike, type AiSdkToolSettings, toolsFromAiSdk } from './tools-from-ai-sdk.js';
export {
  type OpenAIAgentsToolLike,
  type OpenAIAgentsToolSettings,
  toolsFromOpenAIAgents,
} from './tools-from-openai-agents.js';
