/** The agent's options: their types, their checks, and the one configuration a turn runs with. */
export { type AgentConfig, resolveAgentConfig } from './agent-config.js';
export type {
  AgentOptions,
  AgentTelemetryOptions,
  DeleteThreadOptions,
  ResumeOptions,
  SendOptions,
} from './agent-options.js';
export { type AgentToolSets, createAgentToolSets } from './agent-tool-sets.js';
export { assertAgentOptions, assertSendExecution } from './check-agent-options.js';
export { defaultAgentLimits, defaultBounds } from './default-limits.js';
