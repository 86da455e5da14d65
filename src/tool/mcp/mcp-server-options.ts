/**
 * How to reach an MCP server and how to treat its tools. A server is spawned over stdio (`command`)
 * or reached over streamable HTTP (`url`).
 */
import type { RateLimitSpec, ToolSpec } from '../../spec/index.js';
import type { ToolDefinition } from '../tool-definition.js';
import type { McpApprovalPolicy } from './map-mcp-annotations.js';

export interface McpStdioServer {
  command: string;
  args?: readonly string[];
  /** Added to a small safe environment (HOME, PATH, …); the parent's secrets are not passed on. */
  env?: Record<string, string>;
  cwd?: string;
}

export interface McpHttpServer {
  url: string | URL;
  /** Sent with every request, e.g. `{ Authorization: 'Bearer …' }`. */
  headers?: Record<string, string>;
}

/** Fields a source may set per tool, overriding what the annotations gave. */
export type McpToolOverride = Partial<
  Pick<
    ToolSpec,
    | 'idempotent'
    | 'timeoutMs'
    | 'capability'
    | 'accessesPrivateData'
    | 'receivesUntrustedInput'
    | 'communicatesExternally'
    | 'requiresApproval'
    | 'maxRetries'
    | 'parallel'
    | 'cacheTtlMs'
  >
> & { rateLimit?: RateLimitSpec };

export interface McpSourceOptions {
  /** Names the source in errors (`mcp:<name>`); defaults to the command's or host's name. */
  name?: string;
  /** Prepended to every tool name, e.g. `fs_`, to keep names from two servers apart. */
  prefix?: string;
  /** Only these MCP tool names are offered (default: all). */
  include?: readonly string[];
  /** Each tool's timeout unless overridden (default `toolDefaults.timeoutMs`). */
  timeoutMs?: number;
  /** How long connecting (spawn + initialize) may take; default 30 s. */
  connectTimeoutMs?: number;
  /** Whether the server's tools read private data (default true: MCP has no hint for it). */
  accessesPrivateData?: boolean;
  /**
   * Whether the server's own description of its tools is believed. `'untrusted'` (the default): its
   * annotations are ignored and every tool gets the MCP specification's worst-case defaults — not
   * read-only, destructive, not idempotent, open world, so it receives untrusted input and may
   * communicate externally. `'trusted'`: the annotations map as `mapMcpAnnotations` describes. Either
   * way `overrides` set fields per tool (docs/decisions/0068-mcp-annotations-are-untrusted.md).
   */
  trust?: McpTrust;
  /** Which tools need approval: destructive ones (default), all, or none. */
  approval?: McpApprovalPolicy;
  /** Per MCP tool name. */
  overrides?: Record<string, McpToolOverride>;
  /**
   * Offer the server's resources to the model as two read-only tools, `list_resources` and
   * `read_resource` (after `prefix`), whose results are untrusted content: `true`, or the fields to set
   * on both (e.g. `{ requiresApproval: true }`). A server that does not offer resources is a
   * `ConfigurationError` of `mcpTools`.
   */
  resources?: boolean | McpToolOverride;
  /**
   * Called when the server's tool list changed (it sent `notifications/tools/list_changed`, or it was
   * restarted) and was read again: the tools offered now, and the names added and removed.
   */
  onToolsChanged?: (change: McpToolsChange) => void;
}

/** A change of a source's tool list (see `McpSourceOptions.onToolsChanged`). */
export interface McpToolsChange {
  tools: readonly ToolDefinition[];
  added: string[];
  removed: string[];
}

/** A tool the server listed that cannot be offered, with why (a bad schema, a name clash …). */
export interface McpSkippedTool {
  name: string;
  problems: string[];
}

/** Whether an MCP server's annotations are believed (see `McpSourceOptions.trust`). */
export type McpTrust = 'trusted' | 'untrusted';

export type McpToolsOptions = (McpStdioServer | McpHttpServer) & McpSourceOptions;
