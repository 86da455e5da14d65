import type { Agent, SendOptions } from '../agent/index.js';
import type { TurnResult } from '../turn/index.js';

/**
 * What an MCP server needs of an agent: `send` and `resume`. An `Agent` is one; a server that sends turns
 * through a queue passes the queue's `send` with the agent's `resume`.
 */
export interface McpAgent {
  send(options: Pick<SendOptions, 'threadId' | 'text' | 'principal'>): Promise<TurnResult>;
  resume: Agent['resume'];
}
