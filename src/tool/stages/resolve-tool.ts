import type { ToolCallResult } from '../../spec/index.js';
import type { ToolCallState } from '../tool-call-state.js';
import { displayName, errorResult } from '../tool-results.js';

/**
 * Finds the named tool among those offered to this run; an unknown name is never executed. The
 * lookup is a `Map`, so `__proto__` or `constructor` are unknown names like any other.
 */
export function resolveTool(state: ToolCallState): ToolCallResult | undefined {
  const tool = state.batch.tools.get(state.request.toolName);
  if (tool) {
    state.tool = tool;
    return undefined;
  }
  const known = [...state.batch.tools.keys()].join(', ') || 'none';
  const name = displayName(state);
  // Some models wrap parallel calls in a pseudo-tool; they must call the tools directly.
  const hint = state.request.toolName.startsWith('multi_tool_use.')
    ? ' Call each tool directly; several calls in one step run in parallel.'
    : '';
  return errorResult(
    state,
    'not_found',
    `There is no tool named '${name}'. Available tools: ${known}.${hint}`,
  );
}
