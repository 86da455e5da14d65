/**
 * The running side of scale-out (DESIGN.md §7): a worker process takes turns off the BullMQ queue and
 * runs them with its agent, one thread's turns in the order they were enqueued. A turn's request id is
 * its job's, so a job redelivered after its worker died replays the turn from the store instead of
 * repeating it (invariant 5, ADR 0017). See docs/decisions/0023-turn-queue.md.
 */
import { hostname } from 'node:os';
import type { Job, Queue, Worker } from 'bullmq';
import { FlowstackError, ThreadBusyError } from '../../errors/index.js';
import { createErrorReceiver } from '../../observe/index.js';
import type { Logger } from '../../spec/index.js';
import { type Clock, systemClock } from '../../util/index.js';
import { addTurnJob } from './internal/add-turn-job.js';
import type { ImportQueueDrivers } from './internal/load-bullmq.js';
import { type OpenQueue, openQueue } from './internal/open-queue.js';
import {
  type QueueJobData,
  resolveConnection,
  type ScheduledJobData,
  type TurnJobData,
  type TurnJobOutcome,
  type TurnQueueConnection,
} from './turn-job.js';

/** What a worker needs of an agent: `agent.send` (a flowstack `Agent` fits). */
export interface TurnRunningAgent<Result> {
  send(options: {
    threadId: string;
    text: string;
    requestId: string;
    principal?: string;
    signal?: AbortSignal;
  }): Promise<Result>;
}

/** Options of {@link createTurnWorker}. */
export interface TurnWorkerOptions<Result> extends TurnQueueConnection {
  agent: TurnRunningAgent<Result>;
  /** Turns this process runs at once (of different threads). Default 8. */
  concurrency?: number;
  /** Shown in job results and logs. Default `<host>-<pid>`. */
  name?: string;
  /**
   * How long a job's lock lasts without renewal: a worker renews it every half of this while the turn
   * runs, and once a dead worker's lock has run out the job can be taken over. Default 30 s, like the
   * store's lease.
   */
  lockDurationMs?: number;
  /**
   * How often each worker looks for jobs whose lock ran out and puts them back for another worker.
   * Default `lockDurationMs`. A killed worker's turn is taken over after the lock runs out and the next
   * check or two has seen it: measured, 59–60 s with the defaults; 2–2.5 s with a 2 s lock and 0.25 s
   * checks. The turn then also waits for the thread's lease in the store (`limits.leaseTtlMs`).
   */
  stalledIntervalMs?: number;
  /** Times a job may be taken over from a dead worker before it fails. Default 3. */
  maxStalledCount?: number;
  /**
   * A turn whose earlier turn of the same thread has not finished waits; the earlier turn's worker wakes
   * it, and it looks again after this long in any case. Default 2 s.
   */
  orderPollMs?: number;
  /** A turn whose thread is leased by another process (a dead one, until its lease runs out) waits this long. Default 1 s. */
  busyRetryMs?: number;
  /**
   * A thread's turn numbered but never added (its enqueuer died in between) is skipped after this long,
   * so the turns after it do not wait for ever. Default 60 s.
   */
  orphanAfterMs?: number;
  /** Attempts given to turns a scheduled job enqueues. Default 3. */
  attempts?: number;
  clock?: Clock;
  /** Tests only: how the drivers are imported. */
  importDrivers?: ImportQueueDrivers;
  /** Told about turns that failed for good and about infrastructure errors. Default: `logger`. */
  onError?: (error: unknown, job?: { id?: string | undefined; name: string }) => void;
  /**
   * Where those errors go when there is no `onError` (both are told when both are given), as `error`
   * with the job's id and name, redacted. Default: standard error.
   */
  logger?: Logger;
}

export interface TurnWorker {
  readonly name: string;
  /** Connects, checks Redis, and starts taking jobs. */
  ready(): Promise<void>;
  /** Stops taking jobs and waits for the running ones to finish. */
  close(): Promise<void>;
}

// Errors that may pass by themselves: BullMQ tries the turn again (it replays under the same request id).
const transientCodes = new Set([
  'postgres_unavailable',
  'queue_unavailable',
  'version_conflict',
  'store_closed',
]);

/**
 * @example
 * const worker = createTurnWorker({ agent, redisUrl: process.env.REDIS_URL, concurrency: 8 });
 * await worker.ready();
 */
export function createTurnWorker<Result>(options: TurnWorkerOptions<Result>): TurnWorker {
  const connection = resolveConnection(options);
  const clock = options.clock ?? systemClock;
  const name = options.name ?? `${hostname()}-${process.pid}`;
  const orderPollMs = options.orderPollMs ?? 2_000;
  const busyRetryMs = options.busyRetryMs ?? 1_000;
  const orphanAfterMs = options.orphanAfterMs ?? 60_000;
  const lockDuration = options.lockDurationMs ?? 30_000;
  const onError = createErrorReceiver<[job?: { id?: string | undefined; name: string }]>({
    onError: options.onError,
    logger: options.logger,
    message: 'A turn failed for good, or the queue failed.',
    fields: (job) => (job ? { jobId: job.id, job: job.name } : {}),
  });
  let started: Promise<{ open: OpenQueue; queue: Queue; worker: Worker }> | undefined;

  async function start() {
    const opened = await openQueue(connection, options.importDrivers);
    const { Queue: QueueClass, Worker: WorkerClass, DelayedError } = opened.drivers.bullmq;
    const queue = new QueueClass(connection.queueName, opened.bullmqOptions);

    /** Puts the job back for later without spending an attempt. */
    async function later(job: Job, token: string | undefined, ms: number): Promise<never> {
      await job.moveToDelayed(clock.now() + ms, token);
      throw new DelayedError();
    }

    /** Whether the turn the thread waits for can never finish: its job is gone or failed for good. */
    async function isLost(next: { jobId?: string; at?: number }): Promise<boolean> {
      if (next.jobId === undefined) return true;
      const job = await queue.getJob(next.jobId);
      if (!job) return clock.now() - (next.at ?? 0) > orphanAfterMs;
      const state = await job.getState();
      return state === 'completed' || (state === 'failed' && job.finishedOn !== undefined);
    }

    async function runTurn(job: Job, token: string | undefined, signal: AbortSignal | undefined) {
      const data = job.data as TurnJobData;
      for (;;) {
        const { done, next } = await opened.order.read(data.threadId);
        if (done >= data.seq - 1) break;
        if (next && next.seq < data.seq && (await isLost(next))) {
          await opened.order.skip({ threadId: data.threadId, seq: next.seq });
          continue;
        }
        // Wait for the earlier turn: its worker promotes this job when it finishes. If it finished
        // while this job was being put back, the promotion missed it, so look once more afterwards.
        await job.moveToDelayed(clock.now() + orderPollMs, token);
        if ((await opened.order.read(data.threadId)).done >= data.seq - 1)
          await job.promote().catch(() => undefined);
        throw new DelayedError();
      }
      let outcome: TurnJobOutcome<Result>;
      const startedAt = performance.now();
      try {
        const result = await options.agent.send({
          threadId: data.threadId,
          text: data.text,
          requestId: data.requestId,
          ...(data.principal !== undefined ? { principal: data.principal } : {}),
          ...(signal ? { signal } : {}),
        });
        outcome = { ok: true, result, worker: name, runMs: performance.now() - startedAt };
      } catch (error) {
        if (ThreadBusyError.isInstance(error)) return later(job, token, busyRetryMs);
        const transient = !FlowstackError.isInstance(error) || transientCodes.has(error.code);
        if (transient && job.attemptsMade + 1 < (job.opts.attempts ?? 1)) throw error;
        onError(error, { id: job.id, name: job.name });
        outcome = {
          ok: false,
          error: describeError(error),
          worker: name,
          runMs: performance.now() - startedAt,
        };
      }
      const following = await opened.order.finish({
        threadId: data.threadId,
        seq: data.seq,
        requestId: data.requestId,
      });
      // Wake the thread's next turn now rather than at its next look.
      if (following)
        await queue
          .getJob(following)
          .then((nextJob) => nextJob?.promote())
          .catch(() => undefined);
      return outcome;
    }

    async function fireSchedule(job: Job) {
      const data = job.data as ScheduledJobData;
      // One turn per firing, however often the job is delivered: the request id is the job's (with its
      // creation time, since a one-off schedule's job id comes back when the same id is scheduled again).
      const enqueued = await addTurnJob({
        queue,
        order: opened.order,
        request: {
          threadId: data.threadId,
          text: data.text,
          requestId: `scheduled.${data.scheduleId}.${job.id ?? ''}.${job.timestamp}`,
          ...(data.principal !== undefined ? { principal: data.principal } : {}),
        },
        now: clock.now(),
        attempts: options.attempts ?? 3,
      });
      return { ok: true, result: enqueued, worker: name };
    }

    const worker = new WorkerClass(
      connection.queueName,
      async (job: Job, token?: string, signal?: AbortSignal) => {
        const data = job.data as QueueJobData;
        if (data.kind === 'scheduled') return fireSchedule(job);
        return runTurn(job, token, signal);
      },
      {
        ...opened.bullmqOptions,
        name,
        concurrency: options.concurrency ?? 8,
        lockDuration,
        stalledInterval: options.stalledIntervalMs ?? lockDuration,
        maxStalledCount: options.maxStalledCount ?? 3,
        autorun: false,
      },
    );
    worker.on('error', (error) => onError(error));
    void worker.run().catch((error: unknown) => onError(error));
    await worker.waitUntilReady();
    return { open: opened, queue, worker };
  }

  return {
    name,
    async ready() {
      started ??= start();
      started.catch(() => {
        started = undefined;
      });
      await started;
    },
    async close() {
      const running = await started?.catch(() => undefined);
      if (!running) return;
      await running.worker.close();
      await running.queue.close();
      running.open.redis.disconnect();
    },
  };
}

function describeError(error: unknown): { name: string; code: string; message: string } {
  if (FlowstackError.isInstance(error)) return { name: error.name, code: error.code, message: error.message };
  if (error instanceof Error) return { name: error.name, code: 'internal', message: error.message };
  return { name: 'Error', code: 'internal', message: String(error) };
}
