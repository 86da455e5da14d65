/**
 * Splits a step's calls into groups that run one after another; the calls inside a group run
 * concurrently. Consecutive calls with the same explicit `parallelGroup` form a group (the model asked
 * for it, e.g. a `<parallel>` block); so do consecutive ungrouped calls whose tools do not forbid it
 * (`parallel` is not `false`; docs/decisions/0063) or that name no known tool (they fail without running
 * anything). A call to a tool
 * that changes files (`touches`) always runs alone, whatever the model asked: its snapshot must be of the
 * files before it, not of a sibling's half-done work. Every other call is a group of its own. Groups
 * hold call indices.
 */
import type { ToolCallRequest } from '../../spec/index.js';
import type { ToolSet } from '../tool-definition.js';

export function groupCalls(calls: readonly ToolCallRequest[], tools: ToolSet): number[][] {
  const groups: number[][] = [];
  let lastKey: string | undefined;
  calls.forEach((call, index) => {
    let key: string | undefined;
    const tool = tools.get(call.toolName);
    if (tool?.touches) key = undefined;
    else if (call.parallelGroup !== undefined) key = `group:${call.parallelGroup}`;
    else if (tool?.parallel !== false) key = 'step';
    const last = groups.at(-1);
    if (last && key !== undefined && key === lastKey) last.push(index);
    else groups.push([index]);
    lastKey = key;
  });
  return groups;
}
