import { FlowstackError } from './flowstack-error.js';

/**
 * A tool source (an MCP server, an A2A agent) cannot be reached or answered with something unusable:
 * the command does not start, the URL refuses, the server died, the tool list is malformed.
 */
export class ToolSourceError extends FlowstackError {
  /** Which source, e.g. `mcp:filesystem`. */
  readonly source: string;
  constructor(options: { source: string; message: string; cause?: unknown }) {
    super({ name: 'ToolSourceError', code: 'tool_source', message: options.message, cause: options.cause });
    this.source = options.source;
  }
  override toJSON() {
    return { ...super.toJSON(), source: this.source };
  }
}
