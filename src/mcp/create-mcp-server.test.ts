import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createTransferAgent } from '../server/fixtures/transfer-agent.js';
import { createMcpHttpHandler, createMcpServer, type McpTurnOutcome } from './index.js';

/** The official client connected in memory to the agent's server. */
async function connect(
  agent: ReturnType<typeof createTransferAgent>['agent'],
  options: {
    elicit?: (message: string) => {
      action: 'accept' | 'decline' | 'cancel';
      content?: Record<string, string>;
    };
  } = {},
) {
  const server = await createMcpServer({ agent, name: 'payments', principal: 'alice' });
  const client = new Client(
    { name: 'test-client', version: '1.0.0' },
    options.elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  const asked: string[] = [];
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return elicit(request.params.message);
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { result, outcome: result.structuredContent as unknown as McpTurnOutcome };
  };
  return { client, call, asked, close: () => Promise.all([client.close(), server.close()]) };
}

describe('flowstack as an MCP server (official MCP client)', () => {
  it('lists send_message, answer and approve', async () => {
    const { agent } = createTransferAgent({ repeat: true });
    const { client, close } = await connect(agent);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['answer', 'approve', 'send_message']);
    const send = tools.find((t) => t.name === 'send_message');
    expect(send?.inputSchema).toMatchObject({ type: 'object', required: ['text'] });
    await close();
  });

  it('returns the suspension of a turn that waits, and runs the call once approve says yes', async () => {
    const { agent, paid } = createTransferAgent({ repeat: true });
    const { call, close } = await connect(agent);
    const first = await call('send_message', { threadId: 'bills', text: 'pay ana 10' });
    expect(first.outcome.status).toBe('suspended');
    expect(paid).toEqual([]);
    const [waiting] = first.outcome.suspensions;
    expect(waiting).toMatchObject({
      kind: 'approval',
      toolName: 'transfer',
      input: { to: 'ana', amount: 10 },
    });
    expect(first.result.content).toEqual([
      { type: 'text', text: expect.stringContaining(`suspension ${waiting?.suspensionId}`) },
    ]);

    const approved = await call('approve', {
      threadId: 'bills',
      suspensionId: waiting?.suspensionId,
      decision: 'approve',
    });
    expect(approved.outcome).toMatchObject({ threadId: 'bills', status: 'completed', suspensions: [] });
    expect(approved.outcome.reply).toContain('Paid ana 10.');
    expect(paid).toEqual(['ana:10']);
    // The thread is alice's: the server acts for the principal it was made with.
    expect((await agent.readThread('bills')).snapshot.principal).toBe('alice');
    await close();
  });

  it('never runs a rejected call, and says what went wrong for an unknown suspension', async () => {
    const { agent, paid } = createTransferAgent({ repeat: true });
    const { call, close } = await connect(agent);
    const first = await call('send_message', { text: 'pay ana 10' });
    const threadId = first.outcome.threadId;
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
    const unknown = await call('approve', { threadId, suspensionId: 'nope', decision: 'approve' });
    expect(unknown.result.isError).toBe(true);
    const rejected = await call('approve', {
      threadId,
      suspensionId: first.outcome.suspensions[0]?.suspensionId,
      decision: 'reject',
      reason: 'not this month',
    });
    expect(rejected.outcome).toMatchObject({ status: 'completed', suspensions: [] });
    expect(paid).toEqual([]);
    await close();
  });

  it('asks a client that supports elicitation for the approval, so send_message ends with the turn', async () => {
    const { agent, paid } = createTransferAgent({ repeat: true });
    const { call, asked, close } = await connect(agent, {
      elicit: () => ({ action: 'accept', content: { decision: 'approve' } }),
    });
    const sent = await call('send_message', { threadId: 'bills', text: 'pay ana 10' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('"to":"ana"');
    expect(sent.outcome.status).toBe('completed');
    expect(paid).toEqual(['ana:10']);
    await close();
  });

  it('treats a declined elicitation as a rejection and a dismissed one as still open', async () => {
    const declined = createTransferAgent({ repeat: true });
    const decline = await connect(declined.agent, { elicit: () => ({ action: 'decline' }) });
    const no = await decline.call('send_message', { threadId: 'b1', text: 'pay ana 10' });
    expect(no.outcome).toMatchObject({ status: 'completed', suspensions: [] });
    expect(declined.paid).toEqual([]);
    await decline.close();

    const dismissed = createTransferAgent({ repeat: true });
    const dismiss = await connect(dismissed.agent, { elicit: () => ({ action: 'cancel' }) });
    const later = await dismiss.call('send_message', { threadId: 'b2', text: 'pay ana 10' });
    expect(later.outcome.status).toBe('suspended');
    expect(later.outcome.suspensions).toHaveLength(1);
    await dismiss.close();
  });

  it('serves the same tools over Streamable HTTP from a fetch handler', async () => {
    const { agent, paid } = createTransferAgent({ repeat: true });
    const handler = createMcpHttpHandler({ agent, principalOf: () => 'alice' });
    const client = new Client({ name: 'http-client', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('http://agent.test/mcp'), {
      fetch: (url, init) => handler(new Request(url, init)),
    });
    await client.connect(transport);
    const first = (await client.callTool({
      name: 'send_message',
      arguments: { threadId: 'h1', text: 'pay ana 10' },
    })) as CallToolResult;
    const outcome = first.structuredContent as unknown as McpTurnOutcome;
    expect(outcome.status).toBe('suspended');
    const approved = (await client.callTool({
      name: 'approve',
      arguments: { threadId: 'h1', suspensionId: outcome.suspensions[0]?.suspensionId, decision: 'approve' },
    })) as CallToolResult;
    expect((approved.structuredContent as unknown as McpTurnOutcome).status).toBe('completed');
    expect(paid).toEqual(['ana:10']);
    await client.close();
  });
});
