/** The turn's record: the snapshot it changes, the rows it appends, how it is saved, and what running a flow in it shares. */
export { closeDialogue, maxDiffTurns, popFinished } from './close-dialogue.js';
export { commitTurn } from './commit-turn.js';
export { applyDialogue, commitDialogue, dialogueOf, noteDialogue, update } from './dialogue-of.js';
export { executionOptions, type RunFlowsOptions, recordLoopEvents } from './flow-run-context.js';
export { createLiveTurns, type LiveTurn, type LiveTurns, runLiveTurn } from './live-turns.js';
export { type LoadedThread, loadOrCreateThread, loadThread, readRecentMessages } from './load-thread.js';
export { createLiveTextRelay, type LiveTextRelay, type LiveTextRelayOptions } from './relay-live-text.js';
export { scheduleBackgroundFlows } from './schedule-background.js';
export { createThreadLease, type HoldLease, type ThreadLeaseOptions } from './thread-lease.js';
export { openThreadTaint, recordThreadTaint } from './thread-taint.js';
export { toModelPrompt } from './to-model-prompt.js';
export {
  startProgress,
  stepTurn,
  type TurnEffect,
  type TurnEvent,
  type TurnProgress,
  type TurnStep,
  type TurnView,
} from './turn-machine.js';
export { createTurnRecord, observe, record, type TurnState, type TurnTaint } from './turn-state.js';
export { closingParts, type TurnStreamPart, toTurnStreamPart } from './turn-stream-part.js';
export type {
  AgentLimits,
  ConversationMessage,
  SuspensionView,
  ThreadView,
  TurnResult,
  TurnStatus,
} from './turn-types.js';
