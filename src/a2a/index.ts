export {
  type A2AAgentReference,
  type A2ADelegationLimits,
  defaultA2ADelegationLimits,
} from './a2a-agent-reference.js';
export type { A2ATurn, A2ATurnPort } from './a2a-turn-port.js';
export { type AnswerDelegationOptions, answerDelegation } from './answer-delegation.js';
export { type A2AClientPool, type A2AConnection, createA2AClientPool } from './create-a2a-client-pool.js';
export { type A2AExecutorOptions, createA2AExecutor } from './create-a2a-executor.js';
export { type A2AHandler, type A2AHandlerOptions, createA2AHandler } from './create-a2a-handler.js';
export { type AgentCardOptions, createAgentCard } from './create-agent-card.js';
export { type DelegateTaskOptions, type DelegationContext, delegateTask } from './delegate-task.js';
export {
  createDelegateToAgentTool,
  type DelegateToAgentToolOptions,
  delegateToAgentToolName,
} from './delegate-to-agent.js';
export type { DelegationOutcome } from './delegation-outcome.js';
