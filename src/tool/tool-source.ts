/**
 * A source of tools that can change while an agent runs: an MCP server that adds and removes tools
 * (`notifications/tools/list_changed`). Given to `createAgent` itself rather than as a copy of its
 * tools, it is read again when each turn opens, so the model is offered what the source offers now.
 */
import type { ToolDefinition } from './tool-definition.js';

export interface ToolSource {
  /** Names the source in errors, e.g. `mcp:filesystem`. */
  readonly source: string;
  /** The tools it offers now: the same array until they change, then a new one. */
  readonly tools: readonly ToolDefinition[];
}

/** Whether `value` is a tool source rather than one tool. */
export function isToolSource(value: unknown): value is ToolSource {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ToolSource> & { specVersion?: unknown };
  return (
    candidate.specVersion === undefined &&
    typeof candidate.source === 'string' &&
    Array.isArray(candidate.tools)
  );
}
