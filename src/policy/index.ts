export {
  type AmbiguityDeclaration,
  type AmbiguityResolution,
  declareAmbiguity,
  parseYesNo,
  readConfirmation,
  resolveAmbiguity,
} from './ambiguity-handler.js';
export {
  type AppliedExecution,
  applyExecution,
  type ExecutionEffect,
  type ExecutionPlace,
} from './apply-execution.js';
export {
  type CheckName,
  type CheckProblem,
  checkFlow,
  checkSlots,
  type FlowCheck,
  hasTrifecta,
} from './check-flow.js';
export { componentToolNames, createComponentTools, type SkillWorkspace } from './component-tools.js';
export { type ExecuteFlowOptions, executeFlow, type FlowExecution } from './execute-flow.js';
export { isDomainIntent, type ProcessedResult, processResult } from './process-result.js';
export { maxFlowRetries, type RecoveryAction, type RecoveryReason, recover } from './recover.js';
export { reviewSlots, type SlotReview } from './review-slots.js';
export { composeSkillPrompt } from './skill-prompt.js';
export {
  maxCompletionSummaries,
  minCompletionSummaries,
  summarizeCompletion,
} from './summarize-completion.js';
export { type VerifyCheck, type VerifyProblem, verifyFlow } from './verify-flow.js';
