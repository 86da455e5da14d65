export { answerFromText, answerOfReading, readTextAnswer, type TextAnswer } from './answer-from-text.js';
export { answerSuspension, expireSuspensions } from './answer-suspension.js';
export { checkFeedback, type FeedbackCheck } from './check-feedback.js';
export { type CreateSuspensionOptions, createSuspension } from './create-suspension.js';
export {
  approvalFeedback,
  continueFeedback,
  escalationFeedback,
  outcomeFeedback,
  rollbackFeedback,
} from './decision-feedback.js';
export {
  type CallWords,
  type DescribedTool,
  describeCall,
  titleOf,
  wordsOfTool,
} from './describe-call.js';
export { feedbackJsonSchema } from './feedback-json-schema.js';
export {
  archiveSuspensions,
  findSettledSuspension,
  pruneSuspendedRuns,
  readSuspendedRun,
  readSuspendedRuns,
  settledSuspensionsKept,
  writeSuspendedRun,
} from './hitl-state.js';
export { type AnswerTarget, readYesNo, type YesNoReading } from './read-yes-no.js';
export { suspendedRunSchema, suspensionRecordSchema } from './suspended-run-schema.js';
