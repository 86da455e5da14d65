/**
 * Defines a flow: what the agent can do, the slots it needs, the tools its skill may call, its hooks,
 * and the flow methods of seed 001 (`fillSlotsByLabel`, `fillSlotValues`, `isFilled`, `needsToThink`,
 * `serialize`) bound to the definition.
 */
import { ConfigurationError } from '../errors/index.js';
import type { FlowInstance, FlowSpec, Intent, SlotSpec } from '../spec/index.js';
import { type FillSlotValuesOptions, type FillSlotValuesResult, fillSlotValues } from './fill-slot-values.js';
import type { FlowHooks } from './flow-hooks.js';
import type { FlowScript } from './flow-script.js';
import { checkSlotValue, hasValue, invalidSlots, isFilled } from './slot-values.js';

/** Intents every domain has, whatever its own intents are. */
export const coreIntents: readonly Intent[] = ['plan', 'converse', 'internal'];

/** A domain's own intents when it names none (seed 000). */
export const defaultDomainIntents: readonly Intent[] = ['read', 'prepare', 'transform', 'schedule'];

const slotTypes = new Set([
  'text',
  'number',
  'category',
  'range',
  'date',
  'entity',
  'list',
  'dictionary',
  'free-text',
]);
const slotPriorities = new Set(['required', 'elective', 'optional']);

export type DefineFlowOptions = Omit<FlowSpec, 'specVersion' | 'slots' | 'tools' | 'skill'> & {
  slots?: SlotSpec[];
  tools?: string[];
  /** The skill's instructions; `{{slot}}` placeholders are replaced by slot values. */
  skill?: string;
  hooks?: FlowHooks;
  /**
   * The flow's policy as plain code (seed 003 SCRIPT): runs instead of the skill's model loop, with the
   * reviewed slots; no model is called. Its tools (`tools`, which it may leave empty) go through the
   * safety pipeline as a skill's do.
   */
  run?: FlowScript;
};

export interface LabelRejection {
  slot: string;
  value: unknown;
  problem: string;
}

/** A flow as the runtime holds it: the data-only spec, its hooks, and its flow methods. */
export interface FlowDefinition extends FlowSpec {
  readonly hooks: FlowHooks;
  /** The code policy of a SCRIPT flow; a flow without it runs its skill with the model. */
  readonly run?: FlowScript;
  /** A new instance of this flow (Active; the stack decides its final status). */
  create(options: { id: string; slots?: Record<string, unknown>; planId?: string }): FlowInstance;
  /** System 1: fills slots from the router's labels; a label a slot's type rejects is reported, not kept. */
  fillSlotsByLabel(
    flow: FlowInstance,
    labels: Record<string, unknown>,
  ): { flow: FlowInstance; rejected: LabelRejection[] };
  /** System 2: the model fills empty slots from the recent conversation and memory. */
  fillSlotValues(flow: FlowInstance, options: FillSlotValuesOptions): Promise<FillSlotValuesResult>;
  /** All required slots and at least one slot of each elective group hold valid values. */
  isFilled(flow: FlowInstance): boolean;
  /** Slot filling is not finished: something required is empty or a slot holds an invalid value. */
  needsToThink(flow: FlowInstance): boolean;
  /** The instance as plain JSON data for persistence; throws when a slot holds something JSON cannot keep. */
  serialize(flow: FlowInstance): FlowInstance;
}

/**
 * @example
 * const queryData = defineFlow({
 *   name: 'query_data',
 *   intent: 'read',
 *   description: 'Answer a question with an SQL query over one table.',
 *   slots: [
 *     { name: 'table', type: 'entity', priority: 'required', description: 'Table', entities: ['sales'] },
 *     { name: 'question', type: 'free-text', priority: 'required', description: 'Question' },
 *   ],
 *   tools: ['run_query'],
 *   skill: 'Answer "{{question}}" from the table {{table}} with run_query.',
 *   successCriteria: 'The answer cites the rows it is based on.',
 * });
 */
export function defineFlow(options: DefineFlowOptions): FlowDefinition {
  const { hooks, run, ...rest } = options;
  const spec: FlowSpec = {
    ...rest,
    specVersion: 1,
    slots: options.slots ?? [],
    tools: options.tools ?? [],
    skill: options.skill ?? options.description,
  };
  const problems = validateFlowSpec(spec, { script: run !== undefined });
  if (run !== undefined && typeof run !== 'function') problems.push('run must be a function');
  if (problems.length > 0)
    throw new ConfigurationError({ message: `Flow '${options.name}' is invalid.`, problems });
  const definition = toFlowDefinition(spec, hooks ?? {});
  return run ? { ...definition, run } : definition;
}

/** Gives a plain `FlowSpec` (e.g. from a file) its flow methods; a definition is returned as it is. */
export function toFlowDefinition(spec: FlowSpec | FlowDefinition, hooks: FlowHooks = {}): FlowDefinition {
  if ('fillSlotsByLabel' in spec && typeof spec.fillSlotsByLabel === 'function') return spec;
  return {
    ...spec,
    hooks,
    create: ({ id, slots, planId }) => {
      const flow: FlowInstance = { id, name: spec.name, status: 'active', slots: {}, retries: 0 };
      if (planId !== undefined) flow.planId = planId;
      return slots ? fillByLabel(spec, flow, slots).flow : flow;
    },
    fillSlotsByLabel: (flow, labels) => fillByLabel(spec, flow, labels),
    fillSlotValues: (flow, fillOptions) => fillSlotValues(spec, flow, fillOptions),
    isFilled: (flow) => isFilled(spec, flow),
    needsToThink: (flow) => !isFilled(spec, flow) || invalidSlots(spec, flow).length > 0,
    serialize: (flow) => serializeFlow(flow),
  };
}

/**
 * Every problem of a flow spec, as sentences; none means valid. A `script` flow's policy is code that may
 * call no tool at all (a pure computation), so it may have none of its own.
 */
export function validateFlowSpec(spec: FlowSpec, options: { script?: boolean } = {}): string[] {
  const problems: string[] = [];
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(spec.name))
    problems.push(`name '${spec.name}' must be snake_case, 1-64 characters`);
  if (typeof spec.intent !== 'string' || !/^[a-z][a-z0-9_-]*$/.test(spec.intent))
    problems.push(`intent '${String(spec.intent)}' must be a lowercase word`);
  if (!spec.description?.trim()) problems.push('description is empty');
  const domainIntent = !coreIntents.includes(spec.intent);
  if (spec.tools.length > 3) problems.push(`a flow has 1-3 tools of its own, not ${spec.tools.length}`);
  if (domainIntent && spec.tools.length === 0 && options.script !== true)
    problems.push(
      `a '${spec.intent}' flow needs 1-3 tools (only plan, converse and internal flows may have none)`,
    );
  if (new Set(spec.tools).size !== spec.tools.length) problems.push('a tool is named twice');
  for (const tool of spec.requiredTools ?? [])
    if (!spec.tools.includes(tool)) problems.push(`required tool '${tool}' is not one of the flow's tools`);
  if (spec.dependsOn && spec.intent !== 'internal') problems.push('only internal flows have dependsOn');
  if (spec.complexity !== undefined && spec.complexity !== 'simple' && spec.complexity !== 'complex')
    problems.push(`complexity must be simple or complex, not '${String(spec.complexity)}'`);
  const seen = new Set<string>();
  for (const slot of spec.slots) problems.push(...validateSlot(slot, seen));
  const groups = new Map<string, number>();
  for (const slot of spec.slots)
    if (slot.priority === 'elective') groups.set(slot.group ?? '', (groups.get(slot.group ?? '') ?? 0) + 1);
  for (const [group, count] of groups)
    if (count < 2) problems.push(`elective group '${group}' needs two or more slots`);
  const names = new Set(spec.slots.map((s) => s.name));
  for (const match of spec.skill.matchAll(/\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g))
    if (!names.has(match[1] as string)) problems.push(`the skill template names unknown slot '${match[1]}'`);
  return problems;
}

function validateSlot(slot: SlotSpec, seen: Set<string>): string[] {
  const problems: string[] = [];
  const label = `slot '${slot.name}'`;
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(slot.name)) problems.push(`${label}: name must be snake_case`);
  if (seen.has(slot.name)) problems.push(`${label} is declared twice`);
  seen.add(slot.name);
  if (!slotTypes.has(slot.type)) problems.push(`${label}: unknown type '${String(slot.type)}'`);
  if (!slotPriorities.has(slot.priority))
    problems.push(`${label}: unknown priority '${String(slot.priority)}'`);
  if (slot.type === 'category' && (slot.options?.length ?? 0) === 0)
    problems.push(`category ${label} needs options`);
  if (slot.group !== undefined && slot.priority !== 'elective')
    problems.push(`${label}: only elective slots have a group`);
  if (slot.min !== undefined && slot.max !== undefined && slot.min > slot.max)
    problems.push(`${label}: min is above max`);
  if (slot.pattern !== undefined) {
    try {
      new RegExp(slot.pattern);
    } catch {
      problems.push(`${label}: pattern does not compile`);
    }
  }
  return problems;
}

function fillByLabel(
  spec: FlowSpec,
  flow: FlowInstance,
  labels: Record<string, unknown>,
): { flow: FlowInstance; rejected: LabelRejection[] } {
  const slots = { ...flow.slots };
  const rejected: LabelRejection[] = [];
  for (const slot of spec.slots) {
    if (!(slot.name in labels) || !hasValue(labels[slot.name])) continue;
    const check = checkSlotValue(slot, labels[slot.name]);
    if (check.ok) slots[slot.name] = check.value;
    else rejected.push({ slot: slot.name, value: labels[slot.name], problem: check.problem });
  }
  return { flow: { ...flow, slots }, rejected };
}

function serializeFlow(flow: FlowInstance): FlowInstance {
  const text = JSON.stringify(flow, (_key, value: unknown) => {
    if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol')
      throw new ConfigurationError({
        message: `Flow '${flow.name}' holds a ${typeof value}, which cannot be saved.`,
      });
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new ConfigurationError({ message: `Flow '${flow.name}' holds ${value}, which cannot be saved.` });
    return value;
  });
  return JSON.parse(text) as FlowInstance;
}
