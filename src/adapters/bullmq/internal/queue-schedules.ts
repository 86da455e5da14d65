/**
 * Scheduled flows on BullMQ: a one-off schedule is a delayed job, a repeating one a job scheduler
 * (`upsertJobScheduler`: `every` for a period, `pattern` and `tz` for a cron expression), both named
 * `scheduled` and carrying the schedule. When one fires, a worker
 * enqueues its text as the thread's next turn (see `create-turn-worker.ts`).
 */
import type { Job, Queue } from 'bullmq';
import type { ScheduleEntry } from '../../../spec/index.js';
import type { ScheduledJobData } from '../turn-job.js';

const onceJobId = (id: string) => `schedule.${id}`;

export async function upsertSchedule(queue: Queue, entry: ScheduleEntry, now: number): Promise<void> {
  const data: ScheduledJobData & { entry: ScheduleEntry } = {
    kind: 'scheduled',
    scheduleId: entry.id,
    threadId: entry.threadId,
    text: entry.text,
    ...(entry.principal !== undefined ? { principal: entry.principal } : {}),
    entry,
  };
  // Replacing: whatever this id was before (once or repeating) goes first.
  await removeSchedule(queue, entry.id);
  if (entry.everyMs === undefined && entry.cron === undefined) {
    await queue.add('scheduled', data, {
      jobId: onceJobId(entry.id),
      delay: Math.max(0, entry.nextRunAt - now),
      removeOnComplete: true,
      removeOnFail: { age: 24 * 3_600 },
    });
    return;
  }
  const repeat =
    entry.cron !== undefined
      ? {
          pattern: entry.cron,
          tz: entry.timezone ?? 'UTC',
          ...(entry.startAt ? { startDate: entry.startAt } : {}),
        }
      : { every: entry.everyMs as number, startDate: entry.nextRunAt };
  await queue.upsertJobScheduler(
    entry.id,
    { ...repeat, ...(entry.limit !== undefined ? { limit: entry.limit } : {}) },
    { name: 'scheduled', data, opts: { removeOnComplete: true, removeOnFail: { age: 24 * 3_600 } } },
  );
}

export async function removeSchedule(queue: Queue, id: string): Promise<boolean> {
  const repeating = await queue.removeJobScheduler(id);
  const job: Job | undefined = await queue.getJob(onceJobId(id));
  let once = false;
  if (job && (await job.getState()) === 'delayed') {
    await job.remove();
    once = true;
  }
  return repeating || once;
}

export async function describeSchedules(queue: Queue): Promise<ScheduleEntry[]> {
  const entries: ScheduleEntry[] = [];
  for (const scheduler of await queue.getJobSchedulers()) {
    const entry = (scheduler.template?.data as { entry?: ScheduleEntry } | undefined)?.entry;
    if (!entry) continue;
    // BullMQ keeps a scheduler's record after its last run: it is spent when no next job waits.
    const nextJob =
      scheduler.next === undefined
        ? undefined
        : await queue.getJob(`repeat:${scheduler.key}:${scheduler.next}`);
    const state = nextJob ? await nextJob.getState() : 'unknown';
    const pending = state === 'delayed' || state === 'waiting' || state === 'prioritized';
    const created = scheduler.iterationCount ?? 0;
    if (!pending && scheduler.limit !== undefined && created >= scheduler.limit) continue;
    entries.push({
      ...entry,
      ...(scheduler.next !== undefined ? { nextRunAt: scheduler.next } : {}),
      runs: Math.max(0, created - (pending ? 1 : 0)),
    });
  }
  for (const job of await queue.getDelayed()) {
    const entry = (job.data as { entry?: ScheduleEntry }).entry;
    if (job.name === 'scheduled' && job.id === onceJobId(entry?.id ?? '') && entry) entries.push(entry);
  }
  return entries.sort((a, b) => a.nextRunAt - b.nextRunAt || a.id.localeCompare(b.id));
}
