/**
 * What a source says of its MCP connection. Its own file, so that the public types do not reference the
 * MCP SDK, an optional peer a user of no MCP server has not installed.
 */
export interface McpConnectionStatus {
  connected: boolean;
  /** The server process of a stdio source, while connected. */
  pid: number | undefined;
  /** Connections made so far (2 after one reconnect). */
  connects: number;
}
