export type { AgentFileOptions, RollbackOptions } from '../consistency/index.js';
export type {
  AgentOptions,
  AgentTelemetryOptions,
  DeleteThreadOptions,
  ResumeOptions,
  SendOptions,
} from '../options/index.js';
export { defaultAgentLimits, defaultBounds } from '../options/index.js';
export type { WarmUpReport } from '../replay/index.js';
export type { ExecutionOptions } from '../spec/index.js';
export type {
  AgentLimits,
  ConversationMessage,
  SuspensionView,
  ThreadView,
  TurnResult,
  TurnStatus,
  TurnStreamPart,
} from '../turn/index.js';
export { closingParts, toTurnStreamPart } from '../turn/index.js';
export type { Agent, DeletedThread } from './agent-types.js';
export { createAgent } from './create-agent.js';
