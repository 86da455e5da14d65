/**
 * The decision layer (seed 003): answers what it can before any model call — built-in fast paths
 * first, then the domain's rules. `undefined` means the model must predict.
 */
import type { FlowSpec, PendingQuestion } from '../spec/index.js';
import { type BuiltInDecision, matchBuiltInFastPath } from './built-in-fast-paths.js';
import { type FastPathRule, matchFastPath, type Route, strategyOfFlow } from './fast-path.js';

export type Decision = ({ kind: 'built-in' } & BuiltInDecision) | ({ kind: 'route' } & Route);

export function decideRoute(options: {
  text: string;
  rules: readonly FastPathRule[];
  flows: ReadonlyMap<string, FlowSpec & { run?: unknown }>;
  pending?: PendingQuestion;
}): Decision | undefined {
  const builtIn = matchBuiltInFastPath(options.text, {
    confirming: options.pending?.kind === 'confirmation',
  });
  if (builtIn) return { kind: 'built-in', ...builtIn };
  const route = matchFastPath(options.rules, options.text);
  if (!route || !options.flows.has(route.flow)) return undefined;
  return {
    kind: 'route',
    ...route,
    strategy: route.strategy ?? strategyOfFlow(options.flows.get(route.flow)),
  };
}
