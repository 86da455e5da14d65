/** Scheduled flows on the embedded store: a schedule kept in the thread store and fired in-process. */
export {
  createScheduler,
  type InProcessScheduler,
  type InProcessSchedulerOptions,
  type SchedulingAgent,
} from './create-scheduler.js';
