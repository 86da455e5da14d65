/**
 * The flow catalog as the model reads it: the user-facing flows (Internal flows are never routed to
 * from a message), one line each with their slots.
 */
import { readSlotPairs, slotPairsSchema } from '../model/index.js';
import type { FlowSpec } from '../spec/index.js';

/** How the model is asked to answer a routing choice, as the prompt says it. */
export const routeAnswerShape = '{"flow": "<name>", "slots": [{"name": "<slot>", "value": <value>}]}';

/**
 * The response format of a routing choice, valid under every provider's strict structured output
 * (ADR 0058): both keys required, slots as name/value pairs limited to the catalog's slot names.
 */
export function routeSchema(choices: readonly string[], flows: readonly FlowSpec[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      flow: { type: 'string', enum: [...choices] },
      slots: slotPairsSchema(flows.flatMap((f) => f.slots.map((s) => s.name))),
    },
    required: ['flow', 'slots'],
    additionalProperties: false,
  };
}

export function routableFlows(flows: Iterable<FlowSpec>, exclude: readonly string[] = []): FlowSpec[] {
  return [...flows].filter((f) => f.intent !== 'internal' && !exclude.includes(f.name));
}

export function describeCatalog(flows: readonly FlowSpec[]): string {
  return flows
    .map((f) => {
      const slots = f.slots
        .map(
          (s) =>
            `${s.name} (${s.type}${s.options ? `: ${s.options.join('|')}` : s.entities ? `: ${s.entities.join('|')}` : ''})`,
        )
        .join(', ');
      return `- ${f.name} [${f.intent}]: ${f.description}${slots ? ` Slots: ${slots}.` : ''}`;
    })
    .join('\n');
}

/**
 * Parses `{"flow": …, "slots": [{"name": …, "value": …}]}` from a model's text (the slots as a map are
 * read too); anything unusable gives `undefined`.
 */
export function parseFlowChoice(
  text: string,
  names: readonly string[],
): { flow: string; slots: Record<string, unknown> } | undefined {
  try {
    const value = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as {
      flow?: unknown;
      slots?: unknown;
    };
    if (typeof value.flow !== 'string' || !names.includes(value.flow)) return undefined;
    return { flow: value.flow, slots: readSlotPairs(value.slots) };
  } catch {
    return undefined;
  }
}
