/** The plan loop (seed 002): run a plan's items one by one as sub-flows, settle each, route the messages that refine it. */
export {
  type PlanRun,
  type PlanRuntime,
  planCatalog,
  planModelContext,
  readStepOutputs,
  setItemStatus,
  setPlan,
  updatePlanItems,
} from './plan-run.js';
export { endFlow, pushSubFlow } from './plan-stack.js';
export { routePlanMessage } from './route-plan-message.js';
export { type PlanStep, retireStalePlan, runPlan } from './run-plan.js';
export { type ItemResult, runPlanItem } from './run-plan-item.js';
export { type SettleOptions, settlePlanItem } from './settle-plan-item.js';
