/**
 * The enqueuing side of scale-out (DESIGN.md §7): API processes put turns on a BullMQ queue in Redis
 * instead of running them, and wait for a worker's answer. See docs/decisions/0023-turn-queue.md.
 */
import type { Queue, QueueEvents } from 'bullmq';
import type { ScheduleEntry, ScheduleRequest, Scheduler } from '../../spec/index.js';
import { createScheduleEntry } from '../../store/index.js';
import { type Clock, type IdGenerator, randomIdGenerator, systemClock } from '../../util/index.js';
import { addTurnJob } from './internal/add-turn-job.js';
import { describeServiceUrl } from './internal/describe-service-url.js';
import type { ImportQueueDrivers } from './internal/load-bullmq.js';
import { type OpenQueue, openQueue } from './internal/open-queue.js';
import { describeSchedules, removeSchedule, upsertSchedule } from './internal/queue-schedules.js';
import { waitForJob } from './internal/wait-for-job.js';
import { QueueUnavailableError } from './queue-unavailable-error.js';
import {
  type EnqueuedTurn,
  resolveConnection,
  type TurnJobOutcome,
  type TurnQueueConnection,
  type TurnRequest,
} from './turn-job.js';

export type { EnqueuedTurn, TurnRequest } from './turn-job.js';

import { TurnJobError } from './turn-job-error.js';

/** Options of {@link createTurnQueue}. */
export interface TurnQueueOptions extends TurnQueueConnection {
  /** Request ids of turns enqueued without one. */
  ids?: IdGenerator;
  clock?: Clock;
  /** How long `send` waits for a worker's answer before it stops waiting (the turn goes on). Default 10 min. */
  waitTimeoutMs?: number;
  /** Attempts of a turn that fails with an error that may pass (Redis or PostgreSQL away). Default 3. */
  attempts?: number;
  /** Tests only: how the drivers are imported. */
  importDrivers?: ImportQueueDrivers;
}

/**
 * The queue as API processes use it. `send` has the shape of `agent.send`, so a server can take it in
 * place of the agent's own (`createServer({ turns: queue })`). It is also a `Scheduler`: scheduled flows
 * become BullMQ delayed jobs (once) and job schedulers (repeating), fired by the workers.
 */
export interface TurnQueue<Result = unknown> extends Scheduler {
  enqueue(request: TurnRequest): Promise<EnqueuedTurn>;
  /**
   * The turn's result once a worker has run it. A turn that ended with an error rejects with a
   * `TurnJobError` carrying the worker's error name and code.
   */
  waitFor(jobId: string, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<Result>;
  /** `enqueue` then `waitFor`. */
  send(request: TurnRequest & { signal?: AbortSignal }): Promise<Result>;
  /** Connects and checks Redis; every method does this on first use. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * @example
 * const turns = createTurnQueue({ redisUrl: process.env.REDIS_URL });
 * const result = await turns.send({ threadId: 't-1', text: 'Book a table for two' });
 */
export function createTurnQueue<Result = unknown>(options: TurnQueueOptions = {}): TurnQueue<Result> {
  const connection = resolveConnection(options);
  const ids = options.ids ?? randomIdGenerator;
  const clock = options.clock ?? systemClock;
  const waitTimeoutMs = options.waitTimeoutMs ?? 10 * 60_000;
  const attempts = options.attempts ?? 3;
  let opening: Promise<{ open: OpenQueue; queue: Queue }> | undefined;
  let events: Promise<QueueEvents> | undefined;
  let closed = false;

  function open() {
    if (closed)
      return Promise.reject(
        new QueueUnavailableError({
          address: describeServiceUrl(connection.redisUrl),
          cause: new Error('the queue is closed'),
        }),
      );
    opening ??= openQueue(connection, options.importDrivers).then((opened) => ({
      open: opened,
      queue: new opened.drivers.bullmq.Queue(connection.queueName, opened.bullmqOptions),
    }));
    opening.catch(() => {
      opening = undefined;
    });
    return opening;
  }

  function queueEvents(): Promise<QueueEvents> {
    events ??= open().then(async ({ open: opened }) => {
      const created = new opened.drivers.bullmq.QueueEvents(connection.queueName, opened.bullmqOptions);
      await created.waitUntilReady();
      return created;
    });
    events.catch(() => {
      events = undefined;
    });
    return events;
  }

  const turnQueue: TurnQueue<Result> = {
    async enqueue(request) {
      const { open: opened, queue } = await open();
      const requestId = request.requestId ?? ids('turn');
      return addTurnJob({
        queue,
        order: opened.order,
        request: { ...request, requestId },
        now: clock.now(),
        attempts,
      });
    },
    async waitFor(jobId, waitOptions = {}) {
      const { queue } = await open();
      const end = await waitForJob({
        queue,
        events: await queueEvents(),
        jobId,
        timeoutMs: waitOptions.timeoutMs ?? waitTimeoutMs,
        signal: waitOptions.signal,
      });
      if (end.state === 'failed') {
        const job = await queue.getJob(jobId);
        throw new TurnJobError({
          jobId,
          threadId: (job?.data as { threadId?: string } | undefined)?.threadId ?? '',
          remoteName: 'Error',
          code: 'turn_failed',
          message: end.reason,
        });
      }
      const outcome = end.value as TurnJobOutcome<Result> | null | undefined;
      if (outcome?.ok) return outcome.result;
      if (!outcome) {
        throw new TurnJobError({
          jobId,
          threadId: '',
          remoteName: 'Error',
          code: 'turn_failed',
          message: `Job ${jobId} finished without a result (it was not a turn of this queue).`,
        });
      }
      const job = await queue.getJob(jobId);
      throw new TurnJobError({
        jobId,
        threadId: (job?.data as { threadId?: string } | undefined)?.threadId ?? '',
        remoteName: outcome.error.name,
        code: outcome.error.code,
        message: outcome.error.message,
      });
    },
    async send(request) {
      // Listen before the job exists, so an answer that comes at once is not missed.
      await queueEvents();
      const { signal, ...turn } = request;
      const enqueued = await turnQueue.enqueue(turn);
      return turnQueue.waitFor(enqueued.jobId, signal ? { signal } : {});
    },
    async schedule(request: ScheduleRequest): Promise<ScheduleEntry> {
      const entry = createScheduleEntry(request, clock.now());
      const { queue } = await open();
      await upsertSchedule(queue, entry, clock.now());
      return entry;
    },
    async unschedule(id) {
      const { queue } = await open();
      return removeSchedule(queue, id);
    },
    async listSchedules() {
      const { queue } = await open();
      return describeSchedules(queue);
    },
    async ready() {
      await open();
    },
    async close() {
      if (closed) return;
      closed = true;
      const opened = await opening?.catch(() => undefined);
      const listening = await events?.catch(() => undefined);
      await listening?.close();
      await opened?.queue.close();
      opened?.open.redis.disconnect();
    },
  };
  return turnQueue;
}
