/**
 * The decision layer's domain rules (seed 003): patterns that route a message to a flow, with slot
 * labels and a strategy, without calling the model.
 */

/**
 * The five strategies of seed 003 (mapped onto intents in DESIGN.md §1), plus `flow` for a domain
 * flow that is none of them (a single read, prepare or transform).
 */
export type Strategy = 'direct-response' | 'goal' | 'scheduled-task' | 'sub-agent' | 'script' | 'flow';

export interface FastPathRule {
  /** Tested against the whole trimmed message. */
  pattern: RegExp;
  flow: string;
  /** Slot labels; those from named capture groups are added automatically. */
  slots?: Record<string, unknown>;
  /** Defaults to the strategy of the flow's intent. */
  strategy?: Strategy;
}

export interface Route {
  flow: string;
  slots: Record<string, unknown>;
  source: 'fast-path' | 'model';
  strategy?: Strategy;
}

/** The strategy an intent maps onto (DESIGN.md §1). */
export function strategyOf(intent: string | undefined): Strategy {
  switch (intent) {
    case 'converse':
      return 'direct-response';
    case 'plan':
      return 'goal';
    case 'schedule':
      return 'scheduled-task';
    case 'internal':
      return 'sub-agent';
    default:
      return 'flow';
  }
}

/** The strategy of a flow: SCRIPT when its policy is code (`defineFlow({ run })`), else its intent's. */
export function strategyOfFlow(flow: { intent: string; run?: unknown } | undefined): Strategy {
  return typeof flow?.run === 'function' ? 'script' : strategyOf(flow?.intent);
}

export function matchFastPath(rules: readonly FastPathRule[], text: string): Route | undefined {
  for (const rule of rules) {
    const match = rule.pattern.exec(text);
    if (!match) continue;
    const captured: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(match.groups ?? {}))
      if (value !== undefined) captured[name] = value.trim();
    const route: Route = { flow: rule.flow, slots: { ...rule.slots, ...captured }, source: 'fast-path' };
    if (rule.strategy) route.strategy = rule.strategy;
    return route;
  }
  return undefined;
}
