/**
 * PEX pre-hook `check()` (seed 000): seven cheap checks before any tokens are spent. Checks 1, 2, 5, 6
 * and 7 run first (`checkFlow`); checks 3 and 4 run after slot review has tried to fill the slots
 * (`checkSlots`). Check 7, the lethal-trifecta gate, does not fail: it forces `requiresApproval` on
 * any flow tool that has all three capability tags, in the tool set the skill gets.
 */
import type { FlowDefinition } from '../flow/index.js';
import { missingRequiredSlots, unsatisfiedElectiveGroups } from '../flow/index.js';
import type { FlowInstance, ToolSpec } from '../spec/index.js';
import { createToolSet, type ToolDefinition, type ToolSet } from '../tool/index.js';

export type CheckName =
  | 'active-flow'
  | 'policy-registered'
  | 'required-slots'
  | 'elective-slots'
  | 'tools-valid'
  | 'timeouts-set'
  | 'trifecta-gate'
  | 'flow-hook';

export interface CheckProblem {
  check: CheckName;
  message: string;
}

export interface FlowCheck {
  problems: CheckProblem[];
  /** The flow's own tools as the skill gets them (check 7 applied). */
  tools: ToolSet;
  /** Tools whose approval check 7 forced. */
  gated: string[];
}

/** Whether a tool has all three capability tags of the lethal trifecta. */
export function hasTrifecta(tool: ToolSpec): boolean {
  return tool.accessesPrivateData && tool.receivesUntrustedInput && tool.communicatesExternally;
}

/** Checks 1, 2, 5, 6, 7 and the flow's own `check` hook. */
export function checkFlow(options: {
  flow: FlowInstance | undefined;
  stack: readonly FlowInstance[];
  definition: FlowDefinition | undefined;
  tools: ToolSet;
}): FlowCheck {
  const { flow, definition, tools } = options;
  const empty: FlowCheck = { problems: [], tools: new Map(), gated: [] };
  const active = options.stack.filter((f) => f.status === 'active');
  if (flow?.status !== 'active' || options.stack.at(-1)?.id !== flow.id || active.length !== 1) {
    const message = !flow
      ? 'No flow is active on the stack.'
      : active.length > 1
        ? `${active.length} flows are Active at once (${active.map((f) => f.name).join(', ')}); exactly one may be.`
        : `Flow '${flow.name}' is not the Active flow on top of the stack.`;
    return { ...empty, problems: [{ check: 'active-flow', message }] };
  }
  if (!definition)
    return {
      ...empty,
      problems: [{ check: 'policy-registered', message: `No policy is registered for flow '${flow.name}'.` }],
    };
  const problems: CheckProblem[] = [];
  const own: ToolDefinition[] = [];
  const gated: string[] = [];
  for (const name of definition.tools) {
    const tool = tools.get(name);
    if (!tool) {
      problems.push({
        check: 'tools-valid',
        message: `Flow '${definition.name}' names tool '${name}', which is not registered.`,
      });
      continue;
    }
    if (!tool.inputSchema || (typeof tool.inputSchema !== 'object' && typeof tool.inputSchema !== 'boolean'))
      problems.push({ check: 'tools-valid', message: `Tool '${name}' has no input schema.` });
    if (!(Number.isInteger(tool.timeoutMs) && tool.timeoutMs > 0))
      problems.push({ check: 'timeouts-set', message: `Tool '${name}' has no timeout.` });
    if (hasTrifecta(tool) && !tool.requiresApproval) {
      gated.push(name);
      own.push(gatedCopyOf(tool));
    } else own.push(tool);
  }
  for (const message of definition.hooks.check?.(flow) ?? []) problems.push({ check: 'flow-hook', message });
  return { problems, tools: toolSetOf(definition, own), gated };
}

/** One approval-gated copy per tool, so that a flow's tools are the same objects from run to run. */
const gatedCopies = new WeakMap<ToolDefinition, ToolDefinition>();

function gatedCopyOf(tool: ToolDefinition): ToolDefinition {
  let copy = gatedCopies.get(tool);
  if (!copy) {
    copy = { ...tool, requiresApproval: true };
    gatedCopies.set(tool, copy);
  }
  return copy;
}

/**
 * The flow's tool set, made again only when its tools change: the same set from run to run keeps the
 * caches keyed by it (the component tools added to it, the tools offered to the model).
 */
const flowToolSets = new WeakMap<FlowDefinition, { own: readonly ToolDefinition[]; set: ToolSet }>();

function toolSetOf(definition: FlowDefinition, own: readonly ToolDefinition[]): ToolSet {
  const cached = flowToolSets.get(definition);
  if (cached && cached.own.length === own.length && cached.own.every((tool, i) => tool === own[i]))
    return cached.set;
  const set = createToolSet(own);
  flowToolSets.set(definition, { own, set });
  return set;
}

/** Checks 3 and 4: required slots and elective groups hold valid values. */
export function checkSlots(definition: FlowDefinition, flow: FlowInstance): CheckProblem[] {
  const problems: CheckProblem[] = missingRequiredSlots(definition, flow).map((slot) => ({
    check: 'required-slots',
    message: `Required slot '${slot.name}' is not filled.`,
  }));
  for (const group of unsatisfiedElectiveGroups(definition, flow))
    problems.push({
      check: 'elective-slots',
      message: `None of ${group.map((s) => `'${s.name}'`).join(', ')} is filled.`,
    });
  return problems;
}
