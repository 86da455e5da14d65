/**
 * The tools of one MCP source as they are now. Read again when the server says its list changed: one
 * reading at a time, and one more after it when the server spoke again meanwhile. A tool whose listing
 * did not change keeps its object (the agent's tool sets are then made again only for real changes); a
 * new one is made like the first ones, with the same trust, defaults and overrides.
 */
import { checkToolSpec } from '../../internal/check-tool-spec.js';
import type { ToolDefinition } from '../../tool-definition.js';
import type { McpSkippedTool, McpToolsChange } from '../mcp-server-options.js';
import type { ListedMcpTool } from './list-mcp-tools.js';

export interface McpToolList {
  /** The tools offered now: the same array until the list changes. */
  tools(): readonly ToolDefinition[];
  skipped(): readonly McpSkippedTool[];
  /** Whether the server lists the tool of this MCP name now. */
  offers(mcpName: string): boolean;
  /** Reads the list again; a reading asked for while one runs follows it. Never rejects. */
  refresh(): Promise<void>;
}

export function createMcpToolList(options: {
  listed: readonly ListedMcpTool[];
  /** Reads the server's list. */
  read: () => Promise<ListedMcpTool[]>;
  /** Makes the flowstack tool of a listing. */
  build: (entry: ListedMcpTool) => ToolDefinition;
  include: ReadonlySet<string> | undefined;
  /** Tools the source offers besides the server's (reading its resources). */
  fixed: readonly ToolDefinition[];
  onChange: ((change: McpToolsChange) => void) | undefined;
}): McpToolList {
  let made = new Map<string, { signature: string; tool: ToolDefinition }>();
  let state = assemble(options.listed);
  let running: Promise<void> | undefined;
  let again = false;

  function assemble(listed: readonly ListedMcpTool[]) {
    const next = new Map<string, { signature: string; tool: ToolDefinition }>();
    const tools: ToolDefinition[] = [];
    const skipped: McpSkippedTool[] = [];
    const names = new Set(options.fixed.map((tool) => tool.name));
    for (const entry of listed) {
      if (options.include && !options.include.has(entry.name)) continue;
      const signature = JSON.stringify(entry);
      const previous = made.get(entry.name);
      const tool = previous?.signature === signature ? previous.tool : options.build(entry);
      const problems = checkToolSpec(tool);
      if (names.has(tool.name))
        problems.push(`another tool of this server is also offered as '${tool.name}'`);
      if (problems.length > 0) skipped.push({ name: entry.name, problems });
      else {
        names.add(tool.name);
        tools.push(tool);
        next.set(entry.name, { signature, tool });
      }
    }
    made = next;
    return { tools: [...tools, ...options.fixed], skipped };
  }

  async function readAgain(): Promise<void> {
    do {
      again = false;
      let listed: ListedMcpTool[];
      try {
        listed = await options.read();
      } catch {
        // The server is unreachable now: the list stays as it was, and a reconnect reads it again.
        return;
      }
      const before = new Set(state.tools.map((tool) => tool.name));
      const previousTools = state.tools;
      state = assemble(listed);
      const after = new Set(state.tools.map((tool) => tool.name));
      const added = [...after].filter((name) => !before.has(name));
      const removed = [...before].filter((name) => !after.has(name));
      const same =
        previousTools.length === state.tools.length && previousTools.every((t, i) => t === state.tools[i]);
      if (same) state = { ...state, tools: previousTools };
      else options.onChange?.({ tools: state.tools, added, removed });
    } while (again);
  }

  return {
    tools: () => state.tools,
    skipped: () => state.skipped,
    offers: (mcpName) => made.has(mcpName),
    refresh() {
      if (running) {
        again = true;
        return running;
      }
      running = readAgain().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}
