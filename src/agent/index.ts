export type { AgentFileOptions, RollbackOptions } from '../consistency/index.js';
export type {
  Agent,
  AgentLimits,
  AgentOptions,
  ConversationMessage,
  ExecutionOptions,
  ResumeOptions,
  SendOptions,
  SuspensionView,
  ThreadView,
  TurnResult,
  TurnStatus,
} from './agent-types.js';
export { createAgent } from './create-agent.js';
export { defaultAgentLimits, defaultBounds } from './default-limits.js';
export type { WarmUpReport } from './warm-up.js';
