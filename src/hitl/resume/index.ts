/** Suspending a skill run for people and going on with it once they answer (DESIGN.md invariants 6 and 7). */
export { answerRunFromText, type RunAnswer } from './answer-run-from-text.js';
export { answerWaitingFlow } from './answer-waiting-flow.js';
export {
  type ContinuedRun,
  type ContinueSuspendedRunOptions,
  continueSuspendedRun,
  lookupOf,
} from './continue-suspended-run.js';
export { settleFileQuestion } from './settle-file-question.js';
export { suspendFlowRun } from './suspend-flow-run.js';
export { describeSuspension, describeWaiting, type SuspendRunOptions, suspendRun } from './suspend-run.js';
export { argumentsOf, patchResults } from './suspended-transcript.js';
export {
  describeAnswer,
  listSuspensions,
  openSuspensions,
  type RecordAnswerOptions,
  recordAnswer,
} from './thread-suspensions.js';
