/**
 * Waits for a job to finish: listens to the queue's events and, in case it finished before the listener
 * was there, reads the job once. Unlike BullMQ's `waitUntilFinished` it stops waiting when `signal`
 * aborts (the job itself goes on).
 */
import type { Queue, QueueEvents } from 'bullmq';

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
    const finish = (end: JobEnd | { error: unknown }) => {
      if (settled) return;
      settled = true;
      events.off(`completed:${jobId}`, onCompleted);
      events.off(`failed:${jobId}`, onFailed);
      signal?.removeEventListener('abort', onAbort);
      clearTimeout(timer);
      if ('error' in end) reject(end.error);
      else resolve(end);
    };
    const onCompleted = (args: { returnvalue: unknown }) =>
      finish({ state: 'completed', value: args.returnvalue });
    const onFailed = (args: { failedReason: string }) =>
      finish({ state: 'failed', reason: args.failedReason });
    const onAbort = () => finish({ error: signal?.reason });
    const timer = setTimeout(
      () => finish({ error: new Error(`No answer for job ${jobId} within ${options.timeoutMs} ms.`) }),
      options.timeoutMs,
    );
    timer.unref?.();
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    events.on(`completed:${jobId}`, onCompleted);
    events.on(`failed:${jobId}`, onFailed);
    // State first, then the job: a job read before it finished would carry no return value yet.
    queue
      .getJobState(jobId)
      .then(async (state) => {
        if (state !== 'completed' && state !== 'failed') return;
        const job = await queue.getJob(jobId);
        if (!job) return;
        if (state === 'completed') finish({ state: 'completed', value: job.returnvalue });
        // A failed job may still be retried; only a job out of attempts has failed for good.
        else if (job.finishedOn !== undefined) finish({ state: 'failed', reason: job.failedReason });
      })
      .catch((error: unknown) => finish({ error }));
  });
}
