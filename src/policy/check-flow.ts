/**
 * PEX pre-hook `check()` (seed 000): cheap checks before any tokens are spent. Returns the problems it
 * found; none means the flow may run.
 */
import type { FlowInstance, FlowSpec } from '../spec/index.js';
import type { ToolSet } from '../tool/index.js';

export type CheckProblem =
  | { check: 'active-flow'; message: string }
  | { check: 'policy-registered'; message: string }
  | { check: 'tools-valid'; message: string }
  | { check: 'timeouts-set'; message: string };

export function checkFlow(options: {
  flow: FlowInstance | undefined;
  spec: FlowSpec | undefined;
  tools: ToolSet;
}): CheckProblem[] {
  const { flow, spec, tools } = options;
  if (!flow) return [{ check: 'active-flow', message: 'No flow is active on the stack.' }];
  if (!spec) return [{ check: 'policy-registered', message: `No flow named '${flow.name}' is registered.` }];
  const problems: CheckProblem[] = [];
  for (const name of spec.tools) {
    const tool = tools.get(name);
    if (!tool)
      problems.push({
        check: 'tools-valid',
        message: `Flow '${spec.name}' names tool '${name}', which is not registered.`,
      });
    else if (!(tool.timeoutMs > 0))
      problems.push({ check: 'timeouts-set', message: `Tool '${name}' has no timeout.` });
  }
  return problems;
}
