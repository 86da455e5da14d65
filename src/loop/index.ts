export { type AwaitWithinOptions, awaitWithin, type StopReason, type WithinOutcome } from './await-within.js';
export {
  type CallModelOptions,
  callModel,
  invokeModel,
  type ModelCallOutcome,
  type ModelResponse,
  type ModelToolCall,
  toModelError,
} from './call-model.js';
export {
  type CircuitBreakerEffect,
  type CircuitBreakerEvent,
  type CircuitBreakerState,
  createCircuitBreakerState,
  updateCircuitBreaker,
} from './circuit-breaker.js';
export {
  type ClassifyToolErrorInput,
  classifyToolError,
  type ReflectDecision,
  type ReflectDecisionKind,
  reflectSeverity,
  worstDecision,
} from './classify-tool-error.js';
export {
  type CleanContextOptions,
  type CleanContextResult,
  cleanContext,
  findOrphanedToolCalls,
} from './clean-context.js';
export { describeBacktrack, gracefulFailure } from './describe-progress.js';
export { callSignature, recordCall } from './detect-repeated-call.js';
export {
  checkRequiredTools,
  enforcementPrompt,
  type RequiredToolsVerdict,
} from './enforce-required-tools.js';
export { estimatePromptTokens, measurePromptChars } from './estimate-prompt-tokens.js';
export { finishSkillTool, finishSkillToolName, parseFinishSkill } from './finish-skill-tool.js';
export { isRetryableModelError, modelRetryDelayMs } from './model-retry-policy.js';
export {
  createReplyFieldReader,
  createStringFieldReader,
  type StringFieldReader,
} from './read-string-field.js';
export {
  type RunSkillLoopOptions,
  runSkillLoop,
  type SkillLoopResult,
  type TextToolCall,
} from './run-skill-loop.js';
export {
  isConfirmationDue,
  type ShouldTerminateInput,
  shouldTerminate,
  type TerminationReason,
  type TerminationVerdict,
} from './should-terminate.js';
export type { SkillLoopDelta, SkillLoopEvent, SkillLoopLiveEvent } from './skill-loop-events.js';
export {
  checkSkillLoopLimits,
  defaultSkillLoopLimits,
  type ResolveSkillLoopLimitsOptions,
  resolveSkillLoopLimits,
  type SkillLoopLimits,
  type SkillLoopOverrides,
  type TaskComplexity,
} from './skill-loop-limits.js';
export {
  addFailures,
  type CompletedCall,
  closeSkillLoopState,
  createSkillLoopState,
  type FailedAttempt,
  resumeSkillLoopState,
  type SkillLoopState,
} from './skill-loop-state.js';
export {
  assistantMessage,
  type LoopMessageKind,
  loopMessageKind,
  loopNote,
  textToolResultsMessage,
  toolMessage,
} from './skill-messages.js';
export { terminationOutcome } from './termination-outcome.js';
export { toModelTools } from './to-model-tools.js';
