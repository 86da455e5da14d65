/**
 * Scheduled flows (seed 003's SCHEDULED_TASK strategy, seed 000's Schedule intent): a message sent to a
 * thread later, once or again and again. A schedule is data; whoever keeps it (BullMQ on Redis at
 * scale, the store for the embedded in-process scheduler) sends `text` to `threadId` as a turn when it
 * fires, so the fired turn is routed and run like any other.
 */

/** What a Schedule flow (or a program) asks for. Exactly one of `at`, `everyMs` and `cron`. */
export interface ScheduleRequest {
  /** Stable id: scheduling the same id again replaces the schedule. Letters, digits, `_`, `-`, `.`. */
  id: string;
  threadId: string;
  /** The message sent to the thread each time the schedule fires. */
  text: string;
  principal?: string;
  /** Fire once at this time (ms since the epoch). */
  at?: number;
  /** Fire every this many milliseconds, the first time one period from now (or at `startAt`). */
  everyMs?: number;
  /**
   * Fire at the times of this cron expression: five fields (minute hour day-of-month month day-of-week)
   * or six with seconds first, e.g. `0 9 * * 1-5` — 09:00 on weekdays.
   */
  cron?: string;
  /** With `cron`: the IANA time zone its times are in (default `UTC`), e.g. `Europe/Paris`. */
  timezone?: string;
  /** With `everyMs`: the first time; with `cron`: not before this time. */
  startAt?: number;
  /** With `everyMs` or `cron`: stop after this many runs. */
  limit?: number;
}

/** A schedule as it is kept: the request plus its progress. Survives a JSON round trip. */
export interface ScheduleEntryV1 extends ScheduleRequest {
  readonly specVersion: 1;
  /** When it fires next (ms since the epoch). */
  nextRunAt: number;
  /** How many times it has fired. */
  runs: number;
  createdAt: number;
}

export type ScheduleEntry = ScheduleEntryV1;

/** Something that keeps schedules and fires them: the BullMQ turn queue, or the in-process scheduler. */
export interface Scheduler {
  /** Adds or replaces the schedule with this id; resolves with the kept entry. */
  schedule(request: ScheduleRequest): Promise<ScheduleEntry>;
  /** Removes a schedule; false when there was none. */
  unschedule(id: string): Promise<boolean>;
  listSchedules(): Promise<ScheduleEntry[]>;
}
