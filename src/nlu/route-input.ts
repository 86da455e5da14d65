/**
 * Routing: the decision layer first (no model call), then the model's prediction.
 */
import type { FlowSpec, PendingQuestion } from '../spec/index.js';
import { type Decision, decideRoute } from './decide-route.js';
import type { FastPathRule } from './fast-path.js';
import { type PredictFlowOptions, predictFlow } from './predict-flow.js';

export interface RouteInputOptions extends Omit<PredictFlowOptions, 'flows'> {
  text: string;
  rules: readonly FastPathRule[];
  flows: ReadonlyMap<string, FlowSpec>;
  pending?: PendingQuestion;
}

export async function routeInput(options: RouteInputOptions): Promise<Decision> {
  const decided = decideRoute(options);
  if (decided) return decided;
  const route = await predictFlow({
    ...options,
    flows: [...options.flows.values()],
    ...(options.pending && options.pending.kind !== 'confirmation'
      ? { pendingQuestion: options.pending.question }
      : {}),
  });
  return { kind: 'route', ...route };
}
