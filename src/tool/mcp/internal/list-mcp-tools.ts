/**
 * Reads a server's whole tool list, page by page (`tools/list` with its cursor).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { messageOfThrown, ToolSourceError } from '../../../errors/index.js';
import type { McpToolHints } from '../map-mcp-annotations.js';

/** The shape of one entry of an MCP `tools/list` result that flowstack reads. */
export interface ListedMcpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: McpToolHints & { title?: string };
}

/** More pages than this is a server that keeps handing out cursors: what was read is used. */
const maxPages = 100;

export async function listMcpTools(client: Client, source: string): Promise<ListedMcpTool[]> {
  const tools: ListedMcpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    let result: Awaited<ReturnType<Client['listTools']>>;
    try {
      result = await client.listTools(cursor === undefined ? {} : { cursor });
    } catch (error) {
      throw new ToolSourceError({
        source,
        message: `The MCP server did not list its tools: ${messageOfThrown(error)}`,
        cause: error,
      });
    }
    tools.push(...(result.tools as ListedMcpTool[]));
    cursor = result.nextCursor;
    if (cursor === undefined) return tools;
  }
  return tools;
}
