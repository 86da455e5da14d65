export { createThreadSnapshot } from './create-thread-snapshot.js';
export { type DefineFlowOptions, defineFlow } from './define-flow.js';
export {
  activeFlow,
  completeActiveFlow,
  defaultMaxStackDepth,
  invalidateActiveFlow,
  popFinishedFlows,
  pushFlow,
  updateActiveSlots,
} from './flow-stack.js';
export {
  checkSlotValue,
  fillSlotsByLabel,
  isFilled,
  missingRequiredSlots,
  type SlotCheck,
  unsatisfiedElectiveGroups,
} from './slot-values.js';
