export {
  createMcpHttpHandler,
  handleMcpRequest,
  type McpHttpHandler,
  type McpHttpOptions,
} from './create-mcp-http-handler.js';
export { createMcpServer, type McpServerOptions } from './create-mcp-server.js';
export type { McpAgent } from './mcp-agent.js';
export { type McpSuspension, type McpTurnOutcome, toMcpOutcome } from './mcp-turn-result.js';
