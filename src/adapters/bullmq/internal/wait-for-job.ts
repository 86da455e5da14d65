/**
 * Waits for a job to finish: listens to the queue's events and also reads the job's state now and then
 * (after 1 s, 2 s, 4 s … up to 30 s apart), because an event can be missed — one that came before the
 * event stream was being read, or during a reconnect. Unlike BullMQ's `waitUntilFinished` it stops waiting
 * when `signal` aborts (the job itself goes on).
 */
import type { Queue, QueueEvents } from 'bullmq';
import { TurnWaitTimeoutError } from '../turn-wait-timeout-error.js';

export type JobEnd = { state: 'completed'; value: unknown } | { state: 'failed'; reason: string };

export function waitForJob(options: {
  queue: Queue;
  events: QueueEvents;
  jobId: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}): Promise<JobEnd> {
  const { queue, jobId, signal } = options;
  // Per-job events (`completed:<id>`) are plain emitter events that BullMQ's typed listener map omits.
  const events = options.events as unknown as NodeJS.EventEmitter;
  return new Promise<JobEnd>((resolve, reject) => {
    let settled = false;
    let poller: ReturnType<typeof setTimeout> | undefined;
    const finish = (end: JobEnd | { error: unknown }) => {
      if (settled) return;
      settled = true;
      events.off(`completed:${jobId}`, onCompleted);
      events.off(`failed:${jobId}`, onFailed);
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(timer);
      clearTimeout(poller);
      if ('error' in end) reject(end.error);
      else resolve(end);
    };
    const onCompleted = (args: { returnvalue: unknown }) =>
      finish({ state: 'completed', value: args.returnvalue });
    const onFailed = (args: { failedReason: string }) =>
      finish({ state: 'failed', reason: args.failedReason });
    const onAbort = () => finish({ error: signal?.reason });
    // Says where the job was when waiting ended, to tell a slow queue from a lost job.
    const timer = setTimeout(() => {
      queue
        .getJobState(jobId)
        .catch(() => 'unknown')
        .then((state) =>
          finish({ error: new TurnWaitTimeoutError({ jobId, state, timeoutMs: options.timeoutMs }) }),
        );
    }, options.timeoutMs);
    timer.unref?.();
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    events.on(`completed:${jobId}`, onCompleted);
    events.on(`failed:${jobId}`, onFailed);
    // State first, then the job: a job read before it finished would carry no return value yet.
    const look = () =>
      queue.getJobState(jobId).then(async (state) => {
        if (state !== 'completed' && state !== 'failed') return;
        const job = await queue.getJob(jobId);
        if (!job) return;
        if (state === 'completed') finish({ state: 'completed', value: job.returnvalue });
        // A failed job may still be retried; only a job out of attempts has failed for good.
        else if (job.finishedOn !== undefined) finish({ state: 'failed', reason: job.failedReason });
      });
    const schedule = (ms: number) => {
      poller = setTimeout(() => {
        look()
          .catch(() => undefined)
          .finally(() => {
            if (!settled) schedule(Math.min(ms * 2, 30_000));
          });
      }, ms);
      poller.unref?.();
    };
    look()
      .then(() => {
        if (!settled) schedule(1_000);
      })
      .catch((error: unknown) => finish({ error }));
  });
}
