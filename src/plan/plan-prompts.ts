/**
 * How a plan is shown to the model, in one place: what items can run as (flows, tools, agents), the
 * TodoList with ids and statuses, and the JSON shape of an item proposal.
 */
import type { FlowSpec, PlanState, TodoItem } from '../spec/index.js';

/** What a plan may use, as the planner sees it. */
export interface PlanCatalogView {
  flows: readonly FlowSpec[];
  tools: readonly { name: string; description: string }[];
  /** A2A agents `delegate_to_agent` can reach, when delegation is on. */
  agents: readonly { id: string; description: string }[];
}

export function describePlanCatalog(catalog: PlanCatalogView): string {
  const flows = catalog.flows.map((f) => {
    const slots = f.slots.map((s) => `${s.name} (${s.type}, ${s.priority})`).join(', ');
    return `- ${f.name}: ${f.description}${slots ? ` Slots: ${slots}.` : ''}`;
  });
  const tools = catalog.tools.map((t) => `- ${t.name}: ${t.description}`);
  const parts = [
    `Flows an item can run as (set "flow" and its "slots"):\n${flows.join('\n') || '- (none)'}`,
    `Tools a generic step can require (set "requiredTools"):\n${tools.join('\n') || '- (none)'}`,
  ];
  if (catalog.agents.length > 0)
    parts.push(
      `Other agents a step can delegate to with the tool delegate_to_agent:\n${catalog.agents
        .map((a) => `- ${a.id}: ${a.description}`)
        .join('\n')}`,
    );
  return parts.join('\n\n');
}

export const itemShape =
  '{"id": "<short label>", "description": "<what the step does>", "flow": "<flow name, optional>", ' +
  '"slots": {"<slot>": <value>}, "dependsOn": ["<labels or ids of earlier steps>"], "stepType": "tool" | "reasoning", ' +
  '"requiredTools": ["<tool>"], "expectedOutcome": "<what done looks like>"}';

export function describeItem(item: TodoItem): string {
  const parts = [`${item.id} [${item.status}] ${item.description}`];
  if (item.flow) parts.push(`flow ${item.flow}${item.slots ? ` ${JSON.stringify(item.slots)}` : ''}`);
  if (item.dependsOn.length > 0) parts.push(`after ${item.dependsOn.join(', ')}`);
  if (item.requiredTools.length > 0) parts.push(`tools ${item.requiredTools.join(', ')}`);
  if (item.summary) parts.push(`→ ${item.summary}`);
  return `- ${parts.join('; ')}`;
}

export function describePlan(plan: Pick<PlanState, 'objective' | 'title' | 'items'>): string {
  return `Objective: ${plan.objective}\nPlan "${plan.title}":\n${plan.items.map(describeItem).join('\n')}`;
}
