/**
 * The embedded default's scheduler (DESIGN.md §7, one machine): scheduled flows run in-process from a
 * schedule kept in the store, so it survives a restart. A firing sends the schedule's text to its thread
 * with the request id `scheduled.<id>.<due time>`: a process that died after sending but before saving
 * the next time sends the same request again on restart, and the agent answers it from its log instead
 * of running it twice (docs/decisions/0024-scheduled-flows.md). With BullMQ, the turn queue is the
 * scheduler instead (`flowstack/bullmq`).
 */
import { ConfigurationError, ThreadBusyError, VersionConflictError } from '../errors/index.js';
import type { ScheduleEntry, ScheduleRequest, Scheduler, StateStore } from '../spec/index.js';
import { advanceScheduleEntry, createScheduleEntry } from '../store/index.js';
import { type Clock, systemClock } from '../util/index.js';

/** What the scheduler needs of an agent: `send` (a flowstack `Agent` fits). */
export interface SchedulingAgent {
  send(options: { threadId: string; text: string; requestId: string; principal?: string }): Promise<unknown>;
}

export interface InProcessSchedulerOptions {
  agent: SchedulingAgent;
  /** Keeps the schedule; it must have `saveSchedule`, `deleteSchedule` and `listSchedules` (memory, SQLite and PostgreSQL do). */
  store: StateStore;
  clock?: Clock;
  /** A firing whose thread is busy is tried again after this long. Default 1 s. */
  busyRetryMs?: number;
  /** The longest the scheduler sleeps before looking at the store again. Default 60 s. */
  maxSleepMs?: number;
  /** Told about each firing, with the turn's result or error. */
  onFire?: (event: { entry: ScheduleEntry; result?: unknown; error?: unknown }) => void;
}

export interface InProcessScheduler extends Scheduler {
  /** Starts firing due schedules (those missed while stopped fire once, at once). */
  start(): void;
  /** Fires every schedule due now; resolves with how many fired. `start` calls it when a schedule is due. */
  runDue(): Promise<number>;
  /** Stops firing and waits for a firing under way. The schedule stays in the store. */
  close(): Promise<void>;
}

/**
 * @example
 * const scheduler = createScheduler({ agent, store });
 * scheduler.start();
 * await scheduler.schedule({ id: 'daily-report', threadId: 't-1', text: 'Send the sales report', everyMs: 86_400_000 });
 */
export function createScheduler(options: InProcessSchedulerOptions): InProcessScheduler {
  const { store, agent } = options;
  const { saveSchedule, deleteSchedule, listSchedules } = store;
  if (!saveSchedule || !deleteSchedule || !listSchedules)
    throw new ConfigurationError({
      message: `The ${store.kind} store cannot keep schedules; use the SQLite, PostgreSQL or memory store, or the BullMQ turn queue.`,
    });
  const save = saveSchedule.bind(store);
  const remove = deleteSchedule.bind(store);
  const list = listSchedules.bind(store);
  const clock = options.clock ?? systemClock;
  const busyRetryMs = options.busyRetryMs ?? 1_000;
  const maxSleepMs = options.maxSleepMs ?? 60_000;
  const stopped = new AbortController();
  let wake = new AbortController();
  let running: Promise<void> | undefined;
  let firing: Promise<number> | undefined;
  /** Schedules whose thread was busy: not before this time. */
  const retryAt = new Map<string, number>();

  async function fire(entry: ScheduleEntry): Promise<boolean> {
    try {
      const result = await agent.send({
        threadId: entry.threadId,
        text: entry.text,
        requestId: `scheduled.${entry.id}.${entry.nextRunAt}`,
        ...(entry.principal !== undefined ? { principal: entry.principal } : {}),
      });
      options.onFire?.({ entry, result });
    } catch (error) {
      // Busy, or written by a turn of this same process meanwhile (its lease is this agent's own): later.
      if (ThreadBusyError.isInstance(error) || VersionConflictError.isInstance(error)) {
        retryAt.set(entry.id, clock.now() + busyRetryMs);
        return false;
      }
      // Any other error ends this firing (it is reported); the schedule goes on.
      options.onFire?.({ entry, error });
    }
    retryAt.delete(entry.id);
    const next = advanceScheduleEntry(entry, clock.now());
    if (next) await save(next);
    else await remove(entry.id);
    return true;
  }

  async function runDue(): Promise<number> {
    // One pass at a time: a pass started while another runs waits for it and then looks again.
    while (firing) await firing.catch(() => undefined);
    firing = (async () => {
      const now = clock.now();
      const due = (await list()).filter((e) => e.nextRunAt <= now && (retryAt.get(e.id) ?? 0) <= now);
      // Threads at the same time; one thread's firings one after the other, soonest first.
      const byThread = new Map<string, ScheduleEntry[]>();
      for (const entry of due) byThread.set(entry.threadId, [...(byThread.get(entry.threadId) ?? []), entry]);
      let fired = 0;
      await Promise.all(
        [...byThread.values()].map(async (entries) => {
          for (const entry of entries) if (await fire(entry)) fired += 1;
        }),
      );
      return fired;
    })();
    try {
      return await firing;
    } finally {
      firing = undefined;
    }
  }

  async function loop(): Promise<void> {
    while (!stopped.signal.aborted) {
      await runDue().catch(() => undefined);
      const now = clock.now();
      const times = (await list().catch(() => [])).map((e) => Math.max(e.nextRunAt, retryAt.get(e.id) ?? 0));
      const next = times.length > 0 ? Math.min(...times) : now + maxSleepMs;
      wake = new AbortController();
      await clock
        .sleep(Math.max(0, Math.min(next - now, maxSleepMs)), AbortSignal.any([stopped.signal, wake.signal]))
        .catch(() => undefined);
    }
  }

  return {
    async schedule(request: ScheduleRequest) {
      const entry = createScheduleEntry(request, clock.now());
      await save(entry);
      wake.abort();
      return entry;
    },
    async unschedule(id) {
      const removed = await remove(id);
      wake.abort();
      return removed;
    },
    listSchedules: () => list(),
    start() {
      running ??= loop();
    },
    runDue,
    async close() {
      stopped.abort();
      await running;
      while (firing) await firing.catch(() => undefined);
    },
  };
}
