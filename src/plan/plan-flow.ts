/**
 * The Plan intent's flows: the built-in `plan` flow an agent routes multi-step requests to, and the
 * flow spec a plan item runs as — its own flow's spec when it names one, otherwise a generic step whose
 * skill is the item itself. Items are always offered `update_plan`.
 */
import type { FlowSpec, TodoItem } from '../spec/index.js';
import { updatePlanToolName } from './update-plan-tool.js';

export const planFlowName = 'plan';
export const planStepFlowName = 'plan_step';

/** The built-in Plan flow. Its skill text guides decomposition. */
export const planFlow: FlowSpec = {
  specVersion: 1,
  name: planFlowName,
  intent: 'plan',
  description:
    'A request that needs several steps or several of the other flows: plan the steps, run them one by one, and combine the results.',
  slots: [],
  tools: [],
  skill: 'Decompose the request into the fewest steps that fully answer it.',
};

/** Whether a flow is run by the Plan policy rather than by a skill. */
export function isPlanFlow(spec: FlowSpec | undefined): boolean {
  return spec?.intent === 'plan';
}

/** The spec an item runs as, given the spec of the flow it names (if any) and tools the plan adds. */
export function itemFlowSpec(
  item: TodoItem,
  flowSpec: FlowSpec | undefined,
  extraTools: readonly string[],
): FlowSpec {
  const tools = unique([
    ...(flowSpec?.tools ?? []),
    ...item.requiredTools,
    ...extraTools,
    updatePlanToolName,
  ]);
  if (flowSpec) return { ...flowSpec, tools };
  return {
    specVersion: 1,
    name: planStepFlowName,
    intent: 'internal',
    description: item.description,
    slots: [],
    tools,
    skill: [
      item.description,
      item.expectedOutcome ? `Expected outcome: ${item.expectedOutcome}` : '',
      item.stepType === 'reasoning'
        ? 'This is a reasoning step: work from the results of earlier steps; call a tool only if one is needed.'
        : `This step acts through tools${item.requiredTools.length > 0 ? `; you must call: ${item.requiredTools.join(', ')}` : ''}. Never invent a tool's result.`,
    ]
      .filter((line) => line !== '')
      .join('\n'),
    complexity: 'simple',
  };
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}
