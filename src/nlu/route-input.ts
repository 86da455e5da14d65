/**
 * Routing: fast-path rules first (no model call), then the model's prediction.
 */
import { type FastPathRule, matchFastPath, type Route } from './fast-path.js';
import { type PredictFlowOptions, predictFlow } from './predict-flow.js';

export interface RouteInputOptions extends PredictFlowOptions {
  text: string;
  rules: readonly FastPathRule[];
}

export async function routeInput(options: RouteInputOptions): Promise<Route> {
  return matchFastPath(options.rules, options.text) ?? (await predictFlow(options));
}
