export { type CheckReplanOptions, checkReplan } from './check-replan.js';
export {
  createTodoList,
  type MaterializeOptions,
  materializeDrafts,
  materializeWithLabels,
} from './create-todo-list.js';
export { type DecideRefinementOptions, decideRefinement, type Refinement } from './decide-refinement.js';
export { diffTodoList, hasChanges } from './diff-todo-list.js';
export {
  checkExecutionOptions,
  defaultExecutionConfig,
  type ExecutionConfigLayers,
  type ExecutionEffects,
  mergeExecutionOptions,
  resolveExecutionConfig,
} from './execution-config.js';
export { applyFailurePolicy, type FailureStep, replaceFailedItem } from './failure-policy.js';
export { isPlanFlow, itemFlowSpec, planFlow, planFlowName, planStepFlowName } from './plan-flow.js';
export type { PlanModelContext } from './plan-model-context.js';
export { checkPlanOptions, defaultPlanOptions, type PlanOptions } from './plan-options.js';
export { describeItem, describePlan, describePlanCatalog, type PlanCatalogView } from './plan-prompts.js';
export { planStateSchema, readActivePlan, readPlanState, writePlanState } from './plan-state.js';
export { type PlanProposal, type ProposePlanOptions, proposePlan } from './propose-plan.js';
export {
  type ProposeReplacementOptions,
  proposeReplacement,
  type Replacement,
} from './propose-replacement.js';
export {
  type ApplyReplanOptions,
  applyReplanDecision,
  type ReplanDecision,
  type ReplanResult,
  replanDecisionSchema,
} from './replan-decision.js';
export { type PlanReview, type ReviewPlanOptions, reviewPlan } from './review-plan.js';
export { type SanitizeOptions, type SanitizeResult, sanitizeUpdatedPlan } from './sanitize-updated-plan.js';
export {
  type PlanCandidateScore,
  type PlanSearchResult,
  searchPlans,
  selectBestCandidate,
  shouldSearchPlans,
} from './search-plans.js';
export {
  type CreateStepOutputOptions,
  createStepOutput,
  latestStepOutputs,
  renderStepOutputs,
} from './step-output.js';
export { type SynthesizePlanOptions, synthesizePlan } from './synthesize-plan.js';
export { type TodoItemDraft, todoItemDraftSchema } from './todo-item-draft.js';
export {
  cancelBlockedItems,
  cancelOpenItems,
  cancelPendingItems,
  currentItem,
  type ItemChange,
  isDependencySatisfied,
  isFinalStatus,
  isTodoListSettled,
  nextRunnableItem,
  planProgress,
  startItem,
  todoTransitions,
  updateItem,
} from './todo-list.js';
export {
  createUpdatePlanTool,
  readUpdatedPlan,
  updatePlanToolName,
} from './update-plan-tool.js';
export {
  assertValidTodoList,
  findTodoListProblems,
  type PlanCatalog,
  type ValidatableItem,
  type ValidateTodoListOptions,
} from './validate-todo-list.js';
