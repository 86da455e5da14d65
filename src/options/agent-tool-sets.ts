/**
 * The agent's tool sets as each turn opens: its own tools, the tools its sources (MCP servers) offer
 * now, and the tools the runtime adds (`delegate_to_agent`; `update_plan` for plans). Made again only
 * when a source's list changed, so that a turn sees the same set objects as the turn before when
 * nothing changed.
 */
import { createUpdatePlanTool, updatePlanToolName } from '../plan/index.js';
import {
  createToolSet,
  isToolSource,
  type ToolDefinition,
  type ToolSet,
  type ToolSource,
} from '../tool/index.js';

export interface AgentToolSets {
  /** The tools offered now, and those plan items may use (the same set when plans are off). */
  current(): { tools: ToolSet; planTools: ToolSet };
}

/**
 * Two tools that share a name are a `ConfigurationError` at start-up. A source that later adds a tool
 * under a name already taken does not get it offered: the tool that had the name keeps it.
 */
export function createAgentToolSets(options: {
  given: readonly (ToolDefinition | ToolSource)[];
  added: readonly ToolDefinition[];
  planning: boolean;
}): AgentToolSets {
  const { given, added, planning } = options;
  const updatePlanTool = planning ? createUpdatePlanTool() : undefined;
  const partsNow = () => given.map((entry) => (isToolSource(entry) ? entry.tools : entry));
  let parts = partsNow();
  let sets = build(parts, true);
  return {
    current() {
      const now = partsNow();
      if (now.some((part, index) => part !== parts[index])) {
        parts = now;
        sets = build(parts, false);
      }
      return sets;
    },
  };

  function build(
    from: readonly (ToolDefinition | readonly ToolDefinition[])[],
    atStart: boolean,
  ): { tools: ToolSet; planTools: ToolSet } {
    const all = [...from.flat(), ...added];
    const names = new Set<string>(planning ? [updatePlanToolName] : []);
    const kept = atStart ? all : all.filter((tool) => !names.has(tool.name) && names.add(tool.name));
    const tools = createToolSet(kept);
    return { tools, planTools: updatePlanTool ? createToolSet([...kept, updatePlanTool]) : tools };
  }
}
