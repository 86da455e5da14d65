/**
 * Approvals through MCP elicitation: while a turn waits on an approval and the client can be asked
 * (it declared `elicitation`), the client's user is asked, and the answer resumes the thread. The user's
 * "decline" is a rejection; a dismissed question ("cancel") stays open, for the `approve` tool or later.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { TurnResult } from '../turn/index.js';
import type { McpAgent } from './mcp-agent.js';

/** A turn can suspend again after each approval; past this many in one call, the rest wait for `approve`. */
const maxApprovalsPerCall = 10;

export async function askForApprovals(options: {
  agent: McpAgent;
  server: McpServer;
  result: TurnResult;
  principal: string | undefined;
}): Promise<TurnResult> {
  const { agent, server, principal } = options;
  let result = options.result;
  for (let asked = 0; asked < maxApprovalsPerCall; asked++) {
    if (server.server.getClientCapabilities()?.elicitation === undefined) return result;
    const approval = result.suspensions?.find((s) => s.status === 'open' && s.kind === 'approval');
    if (!approval) return result;
    const reply = await server.server.elicitInput({
      message: `${approval.prompt}${approval.input !== undefined ? `\n\nArguments: ${JSON.stringify(approval.input)}` : ''}`,
      requestedSchema: {
        type: 'object',
        properties: {
          decision: { type: 'string', title: 'Decision', enum: ['approve', 'reject'] },
          reason: { type: 'string', title: 'Reason (when rejecting)' },
        },
        required: ['decision'],
      },
    });
    if (reply.action === 'cancel') return result;
    const content = reply.content ?? {};
    const feedback =
      reply.action === 'accept' && content.decision === 'approve'
        ? { decision: 'approve' }
        : {
            decision: 'reject',
            reason:
              typeof content.reason === 'string' && content.reason !== ''
                ? content.reason
                : 'Declined in the MCP client.',
          };
    result = await agent.resume({
      threadId: result.threadId,
      suspensionId: approval.id,
      feedback,
      ...(principal !== undefined ? { principal } : {}),
    });
  }
  return result;
}
