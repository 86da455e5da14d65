export type { AgentFileOptions, RollbackOptions } from '../consistency/index.js';
export { closingParts, toTurnStreamPart } from '../turn/index.js';
export type {
  Agent,
  AgentLimits,
  AgentOptions,
  AgentTelemetryOptions,
  ConversationMessage,
  DeletedThread,
  DeleteThreadOptions,
  ExecutionOptions,
  ResumeOptions,
  SendOptions,
  SuspensionView,
  ThreadView,
  TurnResult,
  TurnStatus,
  TurnStreamPart,
  WarmUpReport,
} from './agent-types.js';
export { createAgent } from './create-agent.js';
export { defaultAgentLimits, defaultBounds } from './default-limits.js';
