/**
 * A tool from another library passed to `createAgent` as it is would be accepted and fail on the first
 * turn; this says, at `createAgent`, what it is and how to make a flowstack tool of it.
 */
import { ConfigurationError } from '../../errors/index.js';
import { isToolSource } from '../tool-source.js';

/** Why `value` (the agent's `tools[index]`) is not a flowstack tool, or `undefined` when it is one. */
export function describeForeignTool(value: unknown, index: number): string | undefined {
  const tool = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const at = `tools[${index}]${typeof tool.name === 'string' ? ` ('${tool.name}')` : ''}`;
  if (tool.specVersion === 1 && typeof tool.name === 'string' && typeof tool.execute === 'function')
    return undefined;
  if (isToolSource(value)) return undefined;
  if (tool.type === 'function' && typeof tool.invoke === 'function')
    return `${at} is an OpenAI Agents SDK tool: make flowstack tools of it with toolsFromOpenAIAgents([tool], settings) from 'flowstack'`;
  if (tool.specVersion === undefined && ('inputSchema' in tool || 'parameters' in tool))
    return `${at} is an AI SDK tool(): make flowstack tools of a tool set with toolsFromAiSdk({ tool_name: tool }, settings) from 'flowstack'`;
  return `${at} is not a flowstack tool: make it with defineTool, mcpTools or loadManifest`;
}

/** Refuses, in one `ConfigurationError`, every given tool that is not a flowstack tool. */
export function checkAgentTools(tools: readonly unknown[]): void {
  const foreign = tools.flatMap((tool, index) => describeForeignTool(tool, index) ?? []);
  if (foreign.length > 0)
    throw new ConfigurationError({ message: 'Some tools are not flowstack tools.', problems: foreign });
}
