/**
 * `flowstack mcp [example]`: the example agent as an MCP server on stdin and stdout, for an MCP client
 * (Claude Desktop, an IDE, the MCP inspector) that starts it as a command. Its tools send a message to a
 * thread and answer what a thread waits on; the client's user is asked for approvals when the client
 * supports elicitation (docs/decisions/0083-flowstack-as-an-mcp-server.md). stdout carries the protocol
 * only; messages go to stderr.
 */
import type { Readable, Writable } from 'node:stream';
import { createMcpServer } from '../../mcp/index.js';
import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import type { CliExampleEntry } from '../examples.js';
import { exitCodes } from '../exit-codes.js';
import { openExample } from '../internal/open-example.js';

export async function mcpCommand(
  args: CliArgs,
  io: CliIo,
  options: { example: CliExampleEntry; name: string },
): Promise<number> {
  const example = await openExample(options.example, { db: args.values.db, io });
  try {
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    const server = await createMcpServer({
      agent: example.agent,
      name: `flowstack-${options.name}`,
      principal: args.values.principal ?? 'local',
    });
    const transport = new StdioServerTransport(io.stdin as Readable, io.stdout as Writable);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
    });
    // The client ends the session by closing our stdin.
    io.stdin.once('end', () => void server.close());
    await server.connect(transport);
    io.err(
      `flowstack: MCP server for the ${options.name} example on stdio; model is ${example.modelDescription}`,
    );
    await Promise.race([closed, io.stopped]);
    await server.close();
    return exitCodes.ok;
  } finally {
    await example.agent.close();
  }
}
