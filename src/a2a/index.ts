export type { A2ATurn, A2ATurnPort } from './a2a-turn-port.js';
export { type A2AExecutorOptions, createA2AExecutor } from './create-a2a-executor.js';
export { type A2AHandler, type A2AHandlerOptions, createA2AHandler } from './create-a2a-handler.js';
export { type AgentCardOptions, createAgentCard } from './create-agent-card.js';
