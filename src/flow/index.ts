export { blockedBackgroundFlows, readyBackgroundFlows, toBackgroundFlows } from './background-flows.js';
export { checkDialogueInvariants, duplicateProblems } from './check-invariants.js';
export { createThreadSnapshot } from './create-thread-snapshot.js';
export {
  type Domain,
  type DomainOptions,
  defineDomain,
  maxFlowsPerDomain,
  validateDomain,
} from './define-domain.js';
export {
  coreIntents,
  type DefineFlowOptions,
  defaultDomainIntents,
  defineFlow,
  type FlowDefinition,
  type LabelRejection,
  toFlowDefinition,
  validateFlowSpec,
} from './define-flow.js';
export {
  createDialogueState,
  type DialogueEvent,
  type DialogueState,
  type TransitionOptions,
  transitionDialogue,
} from './dialogue-state.js';
export { diffDialogue } from './diff-dialogue.js';
export { type FillSlotValuesOptions, type FillSlotValuesResult, fillSlotValues } from './fill-slot-values.js';
export type { AfterCompleteEffects, FallbackTarget, FlowHooks, InternalFlowRequest } from './flow-hooks.js';
export type { FlowScript, FlowScriptContext } from './flow-script.js';
export {
  activeFlow,
  completeActiveFlow,
  defaultMaxStackDepth,
  fallbackFlow,
  findOpenDuplicate,
  invalidateActiveFlow,
  invalidateFlow,
  isOpen,
  popFinishedFlows,
  pushFlow,
  updateActiveSlots,
  updateFlow,
} from './flow-stack.js';
export { type LoadDomainOptions, loadDomain } from './load-domain.js';
export { parseSkillFile, type SkillFile, skillToFlowSpec } from './parse-skill-file.js';
export {
  checkSlotValue,
  hasValue,
  invalidSlots,
  isFilled,
  missingRequiredSlots,
  type SlotCheck,
  unsatisfiedElectiveGroups,
} from './slot-values.js';
