/**
 * One listed MCP tool as a flowstack tool: its fields from the annotations (a trusted server) or the
 * specification's worst case (any other), the source's overrides over them, and an `execute` that
 * calls the server — unless the server has since removed the tool, which then is not called at all.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { messageOfThrown, ToolCallError } from '../../../errors/index.js';
import type { JsonSchema } from '../../../spec/index.js';
import { toolDefaults } from '../../tool-defaults.js';
import type { ToolDefinition } from '../../tool-definition.js';
import { mapMcpAnnotations } from '../map-mcp-annotations.js';
import type { McpToolsOptions } from '../mcp-server-options.js';
import type { ListedMcpTool } from './list-mcp-tools.js';
import type { McpConnection } from './mcp-connection.js';
import { renderMcpContent } from './render-mcp-content.js';

/** Extra time the SDK waits past the tool's timeout, so that the pipeline's own timeout fires first. */
const sdkTimeoutGraceMs = 1_000;

export function toMcpTool(
  entry: ListedMcpTool,
  from: {
    options: McpToolsOptions;
    connection: McpConnection;
    /** Whether the server still lists the tool (it may have removed it since). */
    offers: (mcpName: string) => boolean;
  },
): ToolDefinition {
  const { options, connection } = from;
  // An untrusted server's hints are its own claims: a tool that says it only reads may exfiltrate.
  const hints = options.trust === 'trusted' ? entry.annotations : undefined;
  const fields = mapMcpAnnotations(hints, {
    accessesPrivateData: options.accessesPrivateData ?? true,
    approval: options.approval ?? 'destructive',
  });
  const override = options.overrides?.[entry.name] ?? {};
  const description =
    entry.description?.trim() ||
    entry.title ||
    entry.annotations?.title ||
    `Tool '${entry.name}' of ${connection.source}.`;
  const tool: ToolDefinition = {
    specVersion: 1,
    id: `${connection.source}/${entry.name}`,
    name: mcpLocalName(entry.name, options.prefix ?? ''),
    description,
    inputSchema: entry.inputSchema as JsonSchema,
    timeoutMs: options.timeoutMs ?? toolDefaults.timeoutMs,
    maxRetries: toolDefaults.maxRetries,
    ...fields,
    ...override,
    execute: async (input, context) => {
      if (!from.offers(entry.name))
        throw new ToolCallError({
          category: 'not_found',
          message: `The MCP server ${connection.source} no longer offers the tool '${entry.name}'.`,
        });
      return callTool({
        connection,
        mcpName: entry.name,
        input,
        timeoutMs: tool.timeoutMs,
        signal: context.signal,
        structured: entry.outputSchema !== undefined,
      });
    },
  };
  if (entry.outputSchema) tool.outputSchema = entry.outputSchema as JsonSchema;
  // What a person approves is shown in the server's words only when the deployment trusts the server
  // (docs/decisions/0088); otherwise by the tool's and its arguments' names.
  const title = options.trust === 'trusted' ? titleOf(entry) : undefined;
  if (options.trust !== 'trusted') tool.untrustedDescription = true;
  else if (title !== undefined) tool.title = title;
  return tool;
}

/** The server's title for a tool, when it is one a prompt can show (one line, at most 80 characters). */
function titleOf(entry: ListedMcpTool): string | undefined {
  const title = (entry.title ?? entry.annotations?.title)?.trim();
  return title && title.length <= 80 && !/[\n\r]/.test(title) ? title : undefined;
}

/** A name providers accept (`^[a-zA-Z][a-zA-Z0-9_-]{0,63}$`): other characters become `_`. */
export function mcpLocalName(mcpName: string, prefix: string): string {
  const cleaned = `${prefix}${mcpName}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  return (/^[a-zA-Z]/.test(cleaned) ? cleaned : `t_${cleaned}`).slice(0, 64);
}

/** The client of a connection, or the `server_error` a call fails with when it cannot connect. */
export async function clientForCall(connection: McpConnection): Promise<Client> {
  try {
    return await connection.client();
  } catch (error) {
    throw new ToolCallError({
      category: 'server_error',
      message: messageOfThrown(error),
      retryable: true,
      cause: error,
    });
  }
}

async function callTool(call: {
  connection: McpConnection;
  mcpName: string;
  input: unknown;
  timeoutMs: number;
  signal: AbortSignal;
  structured: boolean;
}): Promise<unknown> {
  const { connection } = call;
  const client = await clientForCall(connection);
  let result: Awaited<ReturnType<Client['callTool']>>;
  try {
    result = await client.callTool(
      { name: call.mcpName, arguments: call.input as Record<string, unknown> },
      undefined,
      {
        signal: call.signal,
        timeout: call.timeoutMs + sdkTimeoutGraceMs,
      },
    );
  } catch (error) {
    throw mcpCallError(error, client, connection);
  }
  const text = renderMcpContent(result.content as unknown[] | undefined);
  if (result.isError === true)
    throw new ToolCallError({
      category: 'server_error',
      message: text || 'The MCP tool reported an error.',
      retryable: false,
    });
  if (result.structuredContent !== undefined && (call.structured || text === ''))
    return result.structuredContent;
  return text;
}

/** MCP JSON-RPC error codes (`ErrorCode` in the SDK). */
const connectionClosed = -32000;
const requestTimeout = -32001;
const methodNotFound = -32601;
const invalidParams = -32602;

/** A request to the server that failed, as the failure of the tool call that made it. */
export function mcpCallError(error: unknown, client: Client, connection: McpConnection): ToolCallError {
  const code = (error as { code?: unknown } | null)?.code;
  const message = messageOfThrown(error);
  if (code === requestTimeout) return new ToolCallError({ category: 'timeout', message, cause: error });
  if (code === invalidParams)
    return new ToolCallError({ category: 'validation_error', message, cause: error });
  if (code === methodNotFound) return new ToolCallError({ category: 'not_found', message, cause: error });
  if (typeof code === 'number' && code !== connectionClosed)
    return new ToolCallError({ category: 'server_error', message, retryable: false, cause: error });
  // The connection itself failed: the server died, or the HTTP endpoint went away.
  connection.reset(client);
  const why = connection.lastLoss() || message;
  return new ToolCallError({
    category: 'server_error',
    message: `The MCP server ${connection.source} failed during the call: ${why}. It is restarted on the next call.`,
    retryable: true,
    cause: error,
  });
}
