export {
  createTurnQueue,
  type EnqueuedTurn,
  type TurnQueue,
  type TurnQueueOptions,
  type TurnRequest,
} from './create-turn-queue.js';
export {
  createTurnWorker,
  type TurnRunningAgent,
  type TurnWorker,
  type TurnWorkerOptions,
} from './create-turn-worker.js';
export { QueueUnavailableError } from './queue-unavailable-error.js';
export type {
  QueueJobData,
  ScheduledJobData,
  TurnJobData,
  TurnJobFailure,
  TurnJobOutcome,
  TurnQueueConnection,
} from './turn-job.js';
export { TurnJobError } from './turn-job-error.js';
export { TurnWaitTimeoutError } from './turn-wait-timeout-error.js';
