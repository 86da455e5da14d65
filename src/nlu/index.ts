export { type BuiltInDecision, type BuiltInFastPath, matchBuiltInFastPath } from './built-in-fast-paths.js';
export { describeCatalog, parseFlowChoice, routableFlows } from './catalog.js';
export { type Contemplation, contemplate } from './contemplate.js';
export { type BuiltInOutcome, decideBuiltIn, describeCatalogText } from './decide-built-in.js';
export { decidePendingAnswer, type PendingAnswer } from './decide-pending-answer.js';
export { type Decision, decideRoute } from './decide-route.js';
export {
  type FastPathRule,
  matchFastPath,
  type Route,
  type Strategy,
  strategyOf,
  strategyOfFlow,
} from './fast-path.js';
export { answerFlow, noFlow, type PredictFlowOptions, predictFlow } from './predict-flow.js';
export { defaultMaxInputChars, prepareInput } from './prepare-input.js';
export { type RouteInputOptions, routeInput } from './route-input.js';
export { type RouteTurnOptions, routeTurn } from './route-turn.js';
