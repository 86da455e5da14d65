/**
 * Defines a flow: what the agent can do, the slots it needs, the tools its skill may call.
 */
import { ConfigurationError } from '../errors/index.js';
import type { FlowSpec, Intent, SlotSpec } from '../spec/index.js';

export interface DefineFlowOptions {
  name: string;
  intent: Intent;
  description: string;
  slots?: SlotSpec[];
  tools?: string[];
  /** The skill's instructions; `{{slot}}` placeholders are replaced by slot values. */
  skill?: string;
  successCriteria?: string;
  complexity?: 'simple' | 'complex';
}

/**
 * @example
 * const bookTrip = defineFlow({
 *   name: 'book_trip',
 *   intent: 'transform',
 *   description: 'Book a trip to a city on a date.',
 *   slots: [
 *     { name: 'city', type: 'text', priority: 'required', description: 'Destination', question: 'Where to?' },
 *   ],
 *   tools: ['find_flights', 'book_flight'],
 *   skill: 'Find the cheapest flight to {{city}} and book it.',
 * });
 */
export function defineFlow(options: DefineFlowOptions): FlowSpec {
  const slots = options.slots ?? [];
  const tools = options.tools ?? [];
  const problems: string[] = [];
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(options.name))
    problems.push(`name '${options.name}' must be snake_case, 1-64 characters`);
  if (tools.length > 3) problems.push(`a flow has 1-3 tools of its own, not ${tools.length}`);
  const seen = new Set<string>();
  for (const slot of slots) {
    if (seen.has(slot.name)) problems.push(`slot '${slot.name}' is declared twice`);
    seen.add(slot.name);
    if (slot.type === 'category' && (slot.options?.length ?? 0) === 0)
      problems.push(`category slot '${slot.name}' needs options`);
  }
  const groups = new Map<string, number>();
  for (const slot of slots)
    if (slot.priority === 'elective') groups.set(slot.group ?? '', (groups.get(slot.group ?? '') ?? 0) + 1);
  for (const [group, count] of groups)
    if (count < 2) problems.push(`elective group '${group}' needs two or more slots`);
  if (problems.length > 0)
    throw new ConfigurationError({ message: `Flow '${options.name}' is invalid.`, problems });
  const spec: FlowSpec = {
    specVersion: 1,
    name: options.name,
    intent: options.intent,
    description: options.description,
    slots,
    tools,
    skill: options.skill ?? options.description,
  };
  if (options.successCriteria !== undefined) spec.successCriteria = options.successCriteria;
  if (options.complexity !== undefined) spec.complexity = options.complexity;
  return spec;
}
