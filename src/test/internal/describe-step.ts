/** The parts of a step that `describeStep` shows; fits the model's and the server's step types. */
export interface DescribableStep {
  label?: string;
  repeat?: boolean;
  match?: object;
}

/**
 * One line naming a step for an error message, e.g. `#2 "search" match { phase: "skill" }`
 * or `#4 (repeat) any call`.
 */
export function describeStep(step: DescribableStep, index: number): string {
  const label = step.label === undefined ? '' : ` ${JSON.stringify(step.label)}`;
  const repeat = step.repeat === true ? ' (repeat)' : '';
  const entries = Object.entries(step.match ?? {}).filter(([, value]) => value !== undefined);
  const matcher =
    entries.length === 0
      ? 'any call'
      : `match { ${entries.map(([key, value]) => `${key}: ${describeValue(key, value)}`).join(', ')} }`;
  return `#${index}${label}${repeat} ${matcher}`;
}

function describeValue(key: string, value: unknown): string {
  if (value instanceof RegExp) return value.toString();
  if (typeof value === 'function') {
    return value.name === '' || value.name === key ? '<function>' : `<function ${value.name}>`;
  }
  return JSON.stringify(value) ?? String(value);
}
