/**
 * The flow catalog as the model reads it: the user-facing flows (Internal flows are never routed to
 * from a message), one line each with their slots.
 */
import type { FlowSpec } from '../spec/index.js';

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

/** Parses `{"flow": …, "slots": {…}}` from a model's text; anything unusable gives `undefined`. */
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
    const slots =
      value.slots && typeof value.slots === 'object' && !Array.isArray(value.slots)
        ? (value.slots as Record<string, unknown>)
        : {};
    return { flow: value.flow, slots };
  } catch {
    return undefined;
  }
}
