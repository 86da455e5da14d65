/**
 * How an MCP tool's annotations become flowstack tool fields (DESIGN.md §4). A hint the server leaves
 * out takes the MCP specification's default, which assumes the worst: `readOnlyHint` false,
 * `destructiveHint` true, `idempotentHint` false, `openWorldHint` true. Destructive and idempotent
 * hints only mean something when the tool is not read-only.
 *
 * | field | from |
 * | --- | --- |
 * | `idempotent` | read-only, or `idempotentHint` |
 * | `parallel` | read-only |
 * | `receivesUntrustedInput`, `communicatesExternally` | `openWorldHint` (an open world is read from and written to) |
 * | `accessesPrivateData` | not a hint: the source's option, `true` unless told otherwise |
 * | `capability` | read-only: `safe` (`controlled` if open-world); not destructive: `controlled`; destructive: `restricted` |
 * | `requiresApproval` | destructive (with the source's `approval: 'destructive'`, the default) |
 */
import type { CapabilityLevel } from '../../spec/index.js';

/** The four behaviour hints of the MCP `ToolAnnotations` type. */
export interface McpToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** When a source's tools need a human's yes. */
export type McpApprovalPolicy = 'destructive' | 'always' | 'never';

export interface McpToolFields {
  idempotent: boolean;
  parallel: boolean;
  capability: CapabilityLevel;
  accessesPrivateData: boolean;
  receivesUntrustedInput: boolean;
  communicatesExternally: boolean;
  requiresApproval: boolean;
}

/** The MCP specification's defaults for hints a server leaves out. */
export const mcpHintDefaults = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const satisfies Required<McpToolHints>;

export function mapMcpAnnotations(
  hints: McpToolHints | undefined,
  source: { accessesPrivateData: boolean; approval: McpApprovalPolicy },
): McpToolFields {
  const readOnly = hints?.readOnlyHint ?? mcpHintDefaults.readOnlyHint;
  const destructive = !readOnly && (hints?.destructiveHint ?? mcpHintDefaults.destructiveHint);
  const idempotent = readOnly || (hints?.idempotentHint ?? mcpHintDefaults.idempotentHint);
  const openWorld = hints?.openWorldHint ?? mcpHintDefaults.openWorldHint;
  const capability: CapabilityLevel = readOnly
    ? openWorld
      ? 'controlled'
      : 'safe'
    : destructive
      ? 'restricted'
      : 'controlled';
  return {
    idempotent,
    parallel: readOnly,
    capability,
    accessesPrivateData: source.accessesPrivateData,
    receivesUntrustedInput: openWorld,
    communicatesExternally: openWorld,
    requiresApproval: source.approval === 'always' || (source.approval === 'destructive' && destructive),
  };
}
