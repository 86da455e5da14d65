/** Crash replay: a turn saved as in flight, the model's recorded answers, closing a turn whose process died (DESIGN.md invariant 5), and a worker's warm-up on the takeover path. */
export { abandonTurn } from './abandon-turn.js';
export { closeInterruptedTurn } from './close-interrupted-turn.js';
export {
  type AnsweredRequest,
  assertSameRequest,
  endInflight,
  findRequest,
  fingerprintRequest,
  type InflightTurn,
  interruptedTurnOf,
  noteRunning,
  rememberedRequests,
  repeatedResult,
  startInflight,
  unfinishedCalls,
} from './inflight-turn.js';
export {
  type ModelRecorder,
  modelAnswerToolName,
  type RecordModelCallsOptions,
  recordModelCalls,
} from './record-model-calls.js';
export { decodeRecordedAnswer, encodeRecordedAnswer, type RecordedAnswer } from './recorded-answer.js';
export { interruptedAuditSummary, settleInterruptedAudit } from './settle-interrupted-audit.js';
export {
  type DryRunStoreKind,
  dryRunStoreKind,
  type WarmUpAgent,
  type WarmUpAgentOptions,
  type WarmUpReport,
  warmUpProcess,
} from './warm-up.js';
