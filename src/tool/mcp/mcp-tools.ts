/**
 * An MCP server as a tool source: `mcpTools` connects (stdio or streamable HTTP), lists the server's
 * tools and returns them as flowstack tools whose idempotency, capability tags and approval come from
 * the MCP annotations (see `mapMcpAnnotations`) when the server is `trust: 'trusted'`, and from the
 * specification's worst-case defaults otherwise (a server's claims about its own tools are not proof).
 * Each call goes through the safety pipeline like any tool: the pipeline's timeout reaches the server
 * as a cancellation, an `isError` result becomes a failure result, and a server that died is restarted
 * on the next call.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { messageOfThrown, ToolCallError, ToolSourceError } from '../../errors/index.js';
import type { JsonSchema } from '../../spec/index.js';
import { checkToolSpec } from '../internal/check-tool-spec.js';
import { toolDefaults } from '../tool-defaults.js';
import type { ToolDefinition } from '../tool-definition.js';
import { createMcpConnection, type McpConnection } from './internal/mcp-connection.js';
import { renderMcpContent } from './internal/render-mcp-content.js';
import { type McpToolHints, mapMcpAnnotations } from './map-mcp-annotations.js';
import type { McpConnectionStatus } from './mcp-connection-status.js';
import type { McpToolsOptions } from './mcp-server-options.js';

export interface McpToolSource {
  /** `mcp:<name>`. */
  readonly source: string;
  readonly tools: ToolDefinition[];
  /** Tools the server listed that cannot be offered, with why (a bad schema, a name clash …). */
  readonly skipped: { name: string; problems: string[] }[];
  status(): McpConnectionStatus;
  /** Closes the connection (and stops a stdio server). Later calls fail with a clear error. */
  close(): Promise<void>;
}

/** The shape of one entry of an MCP `tools/list` result that this reads. */
interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: McpToolHints & { title?: string };
}

/** Extra time the SDK waits past the tool's timeout, so that the pipeline's own timeout fires first. */
const sdkTimeoutGraceMs = 1_000;

/**
 * @example
 * const fs = await mcpTools({
 *   command: 'npx', args: ['@modelcontextprotocol/server-filesystem', '/srv/docs'], prefix: 'fs_',
 * });
 * const agent = createAgent({ model, flows, tools: [...fs.tools] });
 * // … on shutdown:
 * await fs.close();
 */
export async function mcpTools(options: McpToolsOptions): Promise<McpToolSource> {
  const connection = createMcpConnection(options);
  let listed: ListedTool[];
  try {
    listed = await listTools(await connection.client(), connection.source);
  } catch (error) {
    await connection.close();
    throw error;
  }
  const include = options.include ? new Set(options.include) : undefined;
  const tools: ToolDefinition[] = [];
  const skipped: { name: string; problems: string[] }[] = [];
  const names = new Set<string>();
  for (const entry of listed) {
    if (include && !include.has(entry.name)) continue;
    const tool = toTool(entry, options, connection);
    const problems = checkToolSpec(tool);
    if (names.has(tool.name)) problems.push(`another tool of this server is also offered as '${tool.name}'`);
    if (problems.length > 0) skipped.push({ name: entry.name, problems });
    else {
      names.add(tool.name);
      tools.push(tool);
    }
  }
  return { source: connection.source, tools, skipped, status: connection.status, close: connection.close };
}

async function listTools(client: Client, source: string): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    let result: Awaited<ReturnType<Client['listTools']>>;
    try {
      result = await client.listTools(cursor === undefined ? {} : { cursor });
    } catch (error) {
      throw new ToolSourceError({
        source,
        message: `The MCP server did not list its tools: ${messageOf(error)}`,
        cause: error,
      });
    }
    tools.push(...(result.tools as ListedTool[]));
    cursor = result.nextCursor;
    if (cursor === undefined) return tools;
  }
  return tools;
}

function toTool(entry: ListedTool, options: McpToolsOptions, connection: McpConnection): ToolDefinition {
  // An untrusted server's hints are its own claims: a tool that says it only reads may exfiltrate.
  const hints = options.trust === 'trusted' ? entry.annotations : undefined;
  const fields = mapMcpAnnotations(hints, {
    accessesPrivateData: options.accessesPrivateData ?? true,
    approval: options.approval ?? 'destructive',
  });
  const override = options.overrides?.[entry.name] ?? {};
  const name = localName(entry.name, options.prefix ?? '');
  const description =
    entry.description?.trim() ||
    entry.title ||
    entry.annotations?.title ||
    `Tool '${entry.name}' of ${connection.source}.`;
  const tool: ToolDefinition = {
    specVersion: 1,
    id: `${connection.source}/${entry.name}`,
    name,
    description,
    inputSchema: entry.inputSchema as JsonSchema,
    timeoutMs: options.timeoutMs ?? toolDefaults.timeoutMs,
    maxRetries: toolDefaults.maxRetries,
    ...fields,
    ...override,
    execute: (input, context) =>
      callTool({
        connection,
        mcpName: entry.name,
        input,
        timeoutMs: tool.timeoutMs,
        signal: context.signal,
        structured: entry.outputSchema !== undefined,
      }),
  };
  if (entry.outputSchema) tool.outputSchema = entry.outputSchema as JsonSchema;
  return tool;
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
  let client: Client;
  try {
    client = await connection.client();
  } catch (error) {
    throw new ToolCallError({
      category: 'server_error',
      message: messageOf(error),
      retryable: true,
      cause: error,
    });
  }
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
    throw toToolCallError(error, client, connection);
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

function toToolCallError(error: unknown, client: Client, connection: McpConnection): ToolCallError {
  const code = (error as { code?: unknown } | null)?.code;
  const message = messageOf(error);
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

/** A name providers accept (`^[a-zA-Z][a-zA-Z0-9_-]{0,63}$`): other characters become `_`. */
function localName(mcpName: string, prefix: string): string {
  const cleaned = `${prefix}${mcpName}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  return (/^[a-zA-Z]/.test(cleaned) ? cleaned : `t_${cleaned}`).slice(0, 64);
}

function messageOf(error: unknown): string {
  return messageOfThrown(error);
}
