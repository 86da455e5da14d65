/**
 * An MCP server as a tool source: `mcpTools` connects (stdio or streamable HTTP), lists the server's
 * tools and returns them as flowstack tools whose idempotency, capability tags and approval come from
 * the MCP annotations (see `mapMcpAnnotations`) when the server is `trust: 'trusted'`, and from the
 * specification's worst-case defaults otherwise (a server's claims about its own tools are not proof).
 * Each call goes through the safety pipeline like any tool: the pipeline's timeout reaches the server
 * as a cancellation, an `isError` result becomes a failure result, and a server that died is restarted
 * on the next call. The list follows the server's: when it says the list changed, it is read again.
 * On request the server's resources are offered as read-only tools; its prompts are there for the
 * application (docs/decisions/0086).
 */
import { ConfigurationError } from '../../errors/index.js';
import type { ToolDefinition } from '../tool-definition.js';
import type { ToolSource } from '../tool-source.js';
import { type ListedMcpTool, listMcpTools } from './internal/list-mcp-tools.js';
import { createMcpConnection } from './internal/mcp-connection.js';
import { createMcpToolList, type McpToolList } from './internal/mcp-tool-list.js';
import { toMcpTool } from './internal/to-mcp-tool.js';
import type { McpConnectionStatus } from './mcp-connection-status.js';
import { getMcpPrompt, listMcpPrompts, type McpPromptInfo, type McpPromptText } from './mcp-prompts.js';
import { createMcpResourceTools } from './mcp-resource-tools.js';
import type { McpSkippedTool, McpToolsOptions } from './mcp-server-options.js';

export interface McpToolSource extends ToolSource {
  /** `mcp:<name>`. */
  readonly source: string;
  /**
   * The tools offered now. Given to `createAgent` as `tools: [source]`, the agent reads them again when
   * each turn opens; a copy (`[...source.tools]`) keeps the tools of the moment it was made, and a tool
   * the server has removed since fails as `not_found` without reaching the server.
   */
  readonly tools: readonly ToolDefinition[];
  /** Tools the server listed that cannot be offered, with why (a bad schema, a name clash …). */
  readonly skipped: readonly McpSkippedTool[];
  /** The server's prompts; an empty list when it offers none. */
  listPrompts(): Promise<McpPromptInfo[]>;
  /** One prompt with its arguments, as text; a `ToolSourceError` when the server cannot give it. */
  getPrompt(name: string, args?: Readonly<Record<string, string>>): Promise<McpPromptText>;
  status(): McpConnectionStatus;
  /** Closes the connection (and stops a stdio server). Later calls fail with a clear error. */
  close(): Promise<void>;
}

/**
 * Connects to an MCP server and offers its tools (and, with `resources`, two tools that read its
 * resources) as flowstack tools that follow the server's list; its prompts are read with `getPrompt`.
 * A connection or listing that fails is a `ToolSourceError`.
 *
 * @example
 * const fs = await mcpTools({
 *   command: 'npx', args: ['@modelcontextprotocol/server-filesystem', '/srv/docs'], prefix: 'fs_',
 * });
 * const agent = createAgent({ model, flows, tools: [fs] });
 * // … on shutdown:
 * await fs.close();
 */
export async function mcpTools(options: McpToolsOptions): Promise<McpToolSource> {
  let list: McpToolList | undefined;
  // A change said before the list exists (while it is first read) is read once the list is made.
  let changedEarly = false;
  const connection = createMcpConnection(options, {
    toolListChanged: () => {
      if (list) void list.refresh();
      else changedEarly = true;
    },
  });
  const read = async () => listMcpTools(await connection.client(), connection.source);
  let listed: ListedMcpTool[];
  try {
    listed = await read();
    const client = await connection.client();
    if (options.resources && !client.getServerCapabilities()?.resources)
      throw new ConfigurationError({
        message: `The MCP server ${connection.source} does not offer resources: mcpTools({ resources }) cannot take effect.`,
      });
  } catch (error) {
    await connection.close();
    throw error;
  }
  const toolList = createMcpToolList({
    listed,
    read,
    build: (entry) => toMcpTool(entry, { options, connection, offers: (name) => toolList.offers(name) }),
    include: options.include ? new Set(options.include) : undefined,
    fixed: createMcpResourceTools(options, connection),
    onChange: options.onToolsChanged,
  });
  list = toolList;
  if (changedEarly) void toolList.refresh();
  return {
    source: connection.source,
    get tools() {
      return toolList.tools();
    },
    get skipped() {
      return toolList.skipped();
    },
    listPrompts: () => listMcpPrompts(connection),
    getPrompt: (name, args) => getMcpPrompt(connection, name, args),
    status: connection.status,
    close: connection.close,
  };
}
