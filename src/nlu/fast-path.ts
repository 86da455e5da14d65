/**
 * The decision layer's fast paths (seed 003): patterns that route a message to a flow, with slot
 * labels, without calling the model.
 */

export interface FastPathRule {
  /** Tested against the whole trimmed message. */
  pattern: RegExp;
  flow: string;
  /** Slot labels from named capture groups are added automatically. */
  slots?: Record<string, unknown>;
}

export interface Route {
  flow: string;
  slots: Record<string, unknown>;
  source: 'fast-path' | 'model';
}

export function matchFastPath(rules: readonly FastPathRule[], text: string): Route | undefined {
  for (const rule of rules) {
    const match = rule.pattern.exec(text);
    if (!match) continue;
    const captured: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(match.groups ?? {}))
      if (value !== undefined) captured[name] = value.trim();
    return { flow: rule.flow, slots: { ...rule.slots, ...captured }, source: 'fast-path' };
  }
  return undefined;
}
