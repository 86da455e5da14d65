/**
 * An agent as an MCP server (issue 33, docs/decisions/0083-flowstack-as-an-mcp-server.md): three tools —
 * `send_message` runs a turn on a thread and returns its reply, `answer` answers a question a thread waits
 * on, `approve` approves or rejects a tool call that waits for a person. A client that supports
 * elicitation is asked for each approval as it comes up, so that a turn ends once it is decided. The MCP
 * SDK is loaded when a server is made: agents that are not served over MCP never load it.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * import { createMcpServer } from 'flowstack/mcp';
 *
 * const server = await createMcpServer({ agent, name: 'weather-desk' });
 * await server.connect(new StdioServerTransport());
 * ```
 */
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { FlowstackError } from '../errors/index.js';
import type { TurnResult } from '../turn/index.js';
import { askForApprovals } from './ask-for-approvals.js';
import type { McpAgent } from './mcp-agent.js';
import { toToolResult } from './mcp-turn-result.js';

export interface McpServerOptions {
  agent: McpAgent;
  /** The server's name in the MCP handshake; defaults to `flowstack`. */
  name?: string;
  version?: string;
  /** Who the client acts for: the owner of the threads it makes (default: none, as `agent.send`). */
  principal?: string;
  /** Ask a client that supports elicitation for each approval as it comes up (default true). */
  elicitApprovals?: boolean;
  /** Ids of threads that `send_message` starts without one; defaults to random UUIDs. */
  newThreadId?: () => string;
}

const suspensionInput = {
  threadId: z.string().min(1).describe('The thread that waits.'),
  suspensionId: z.string().min(1).describe('The suspension, from the `suspensions` of a turn.'),
};

export async function createMcpServer(options: McpServerOptions): Promise<McpServer> {
  const { McpServer } = await loadSdk();
  const { agent, principal } = options;
  const server = new McpServer(
    { name: options.name ?? 'flowstack', version: options.version ?? '0.1.0' },
    {
      instructions:
        "Send the user's request with send_message; keep its threadId to go on with the same conversation. A turn that waits for a person lists its suspensions: answer a question with answer, an approval with approve.",
    },
  );
  const asking = options.elicitApprovals !== false;
  const finish = async (result: TurnResult) =>
    toToolResult(asking ? await askForApprovals({ agent, server, result, principal }) : result);
  const run = async (turn: () => Promise<TurnResult>) => {
    try {
      return await finish(await turn());
    } catch (error) {
      // What the agent refuses (a busy thread, an unknown suspension, a wrong answer) is the caller's to fix.
      if (!FlowstackError.isInstance(error)) throw error;
      return { content: [{ type: 'text' as const, text: `${error.name}: ${error.message}` }], isError: true };
    }
  };
  const owner = principal !== undefined ? { principal } : {};

  server.registerTool(
    'send_message',
    {
      title: 'Send a message',
      description:
        'Sends a message to the agent and returns its reply. Give the threadId of an earlier reply to continue that conversation; leave it out to start a new one.',
      inputSchema: {
        threadId: z.string().min(1).optional().describe('The conversation to continue.'),
        text: z.string().min(1).describe('The message.'),
      },
      annotations: { openWorldHint: true },
    },
    ({ threadId, text }) =>
      run(() =>
        agent.send({ threadId: threadId ?? options.newThreadId?.() ?? randomUUID(), text, ...owner }),
      ),
  );

  server.registerTool(
    'answer',
    {
      title: 'Answer a waiting question',
      description:
        'Answers a suspension the thread waits on (a question, an unknown outcome, a failed file change) with the answer its feedback schema asks for; the turn then goes on.',
      inputSchema: {
        ...suspensionInput,
        answer: z.unknown().describe('The answer: a text, a choice, a number, or a decision object.'),
      },
    },
    ({ threadId, suspensionId, answer }) =>
      run(() => agent.resume({ threadId, suspensionId, feedback: answer, ...owner })),
  );

  server.registerTool(
    'approve',
    {
      title: 'Approve or reject a tool call',
      description:
        'Decides an approval the thread waits on: the tool call runs when approved, never when rejected.',
      inputSchema: {
        ...suspensionInput,
        decision: z.enum(['approve', 'reject']),
        reason: z.string().optional().describe('Why, when rejecting.'),
      },
    },
    ({ threadId, suspensionId, decision, reason }) =>
      run(() =>
        agent.resume({
          threadId,
          suspensionId,
          feedback: decision === 'approve' ? { decision } : { decision, ...(reason ? { reason } : {}) },
          ...owner,
        }),
      ),
  );
  return server;
}

async function loadSdk(): Promise<typeof import('@modelcontextprotocol/sdk/server/mcp.js')> {
  try {
    return await import('@modelcontextprotocol/sdk/server/mcp.js');
  } catch (error) {
    throw new Error('Install @modelcontextprotocol/sdk to serve an agent over MCP (flowstack/mcp).', {
      cause: error,
    });
  }
}
