export { type CheckProblem, checkFlow } from './check-flow.js';
export { type ExecuteFlowOptions, executeFlow, type FlowExecution } from './execute-flow.js';
export { maxFlowRetries, type RecoveryAction, recover } from './recover.js';
export { reviewSlots } from './review-slots.js';
