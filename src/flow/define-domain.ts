/**
 * A domain: the flows an agent can run and the tools their skills may call, validated together at
 * start-up (seed 000: at most 64 flows per domain; intents Plan, Converse and Internal plus the
 * domain's own). Every problem is listed in one `ConfigurationError`.
 */
import { ConfigurationError } from '../errors/index.js';
import type { FlowSpec, Intent, ToolSpec } from '../spec/index.js';
import {
  coreIntents,
  defaultDomainIntents,
  type FlowDefinition,
  toFlowDefinition,
  validateFlowSpec,
} from './define-flow.js';

/** Most flows one domain may have (seed 000 dialogue state ontology limit). */
export const maxFlowsPerDomain = 64;

export interface DomainOptions<T extends ToolSpec = ToolSpec> {
  name: string;
  description?: string;
  flows: readonly (FlowSpec | FlowDefinition)[];
  /** The tools the flows name; when given, every name a flow uses must be here. */
  tools?: readonly T[];
  /** The domain's own intents; defaults to read, prepare, transform, schedule. */
  intents?: readonly Intent[];
  persona?: string;
}

export interface Domain<T extends ToolSpec = ToolSpec> {
  name: string;
  description?: string;
  flows: FlowDefinition[];
  tools: T[];
  intents: Intent[];
  persona?: string;
}

export function defineDomain<T extends ToolSpec>(options: DomainOptions<T>): Domain<T> {
  const problems = validateDomain(options);
  if (problems.length > 0)
    throw new ConfigurationError({ message: `Domain '${options.name}' is invalid.`, problems });
  const domain: Domain<T> = {
    name: options.name,
    flows: options.flows.map((f) => toFlowDefinition(f)),
    tools: [...(options.tools ?? [])],
    intents: [...coreIntents, ...(options.intents ?? defaultDomainIntents)],
  };
  if (options.description !== undefined) domain.description = options.description;
  if (options.persona !== undefined) domain.persona = options.persona;
  return domain;
}

/** Every problem of a set of flows taken together (and with their tools, when given). */
export function validateDomain(options: DomainOptions): string[] {
  const problems: string[] = [];
  const { flows } = options;
  if (flows.length > maxFlowsPerDomain)
    problems.push(`${flows.length} flows; a domain has at most ${maxFlowsPerDomain}`);
  const intents = new Set<string>([...coreIntents, ...(options.intents ?? defaultDomainIntents)]);
  const names = new Map<string, FlowSpec>();
  for (const flow of flows) {
    const script = typeof (flow as { run?: unknown }).run === 'function';
    for (const problem of validateFlowSpec(flow, { script }))
      problems.push(`flow '${flow.name}': ${problem}`);
    if (names.has(flow.name)) problems.push(`two flows are named '${flow.name}'`);
    names.set(flow.name, flow);
    if (!intents.has(flow.intent))
      problems.push(`flow '${flow.name}': intent '${flow.intent}' is not one of ${[...intents].join(', ')}`);
  }
  const tools = options.tools ? new Set(options.tools.map((t) => t.name)) : undefined;
  for (const flow of flows) {
    if (tools)
      for (const tool of flow.tools)
        if (!tools.has(tool)) problems.push(`flow '${flow.name}': tool '${tool}' is not registered`);
    for (const [field, target] of [
      ['fallback', flow.fallback],
      ['gatherContext', flow.gatherContext],
    ] as const) {
      if (target === undefined) continue;
      const found = names.get(target);
      if (!found) problems.push(`flow '${flow.name}': ${field} names unknown flow '${target}'`);
      else if (field === 'gatherContext' && found.intent !== 'internal')
        problems.push(`flow '${flow.name}': gatherContext flow '${target}' is not an internal flow`);
    }
    for (const dependency of flow.dependsOn ?? []) {
      const found = names.get(dependency);
      if (found?.intent !== 'internal')
        problems.push(`flow '${flow.name}': dependsOn names '${dependency}', which is not an internal flow`);
    }
  }
  return problems;
}
