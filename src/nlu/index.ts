export { type FastPathRule, matchFastPath, type Route } from './fast-path.js';
export { noFlow, type PredictFlowOptions, predictFlow } from './predict-flow.js';
export { defaultMaxInputChars, prepareInput } from './prepare-input.js';
export { type RouteInputOptions, routeInput } from './route-input.js';
