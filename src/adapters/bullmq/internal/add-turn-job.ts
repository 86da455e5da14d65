/**
 * Puts one turn on the queue: numbers it among its thread's turns, then adds the job under an id made
 * from the request id. Both steps are idempotent by request id, so enqueuing the same request twice (a
 * client retry, a scheduled job redelivered) yields one job.
 */
import type { Queue } from 'bullmq';
import type { EnqueuedTurn, TurnJobData, TurnRequest } from '../turn-job.js';
import { jobIdOf } from './job-id-of.js';
import type { ThreadOrder } from './thread-order.js';

export async function addTurnJob(options: {
  queue: Queue;
  order: ThreadOrder;
  request: TurnRequest & { requestId: string };
  now: number;
  attempts: number;
}): Promise<EnqueuedTurn> {
  const { queue, order, request } = options;
  const jobId = jobIdOf(request.requestId);
  const seq = await order.assign({
    threadId: request.threadId,
    requestId: request.requestId,
    jobId,
    now: options.now,
  });
  const data: TurnJobData = {
    kind: 'turn',
    threadId: request.threadId,
    text: request.text,
    requestId: request.requestId,
    seq,
    ...(request.principal !== undefined ? { principal: request.principal } : {}),
  };
  await queue.add('turn', data, {
    jobId,
    attempts: options.attempts,
    backoff: { type: 'exponential', delay: 1_000 },
    // Results stay readable for a while (a client that reconnects), then go.
    removeOnComplete: { age: 3_600, count: 10_000 },
    removeOnFail: { age: 24 * 3_600 },
  });
  return { jobId, requestId: request.requestId, threadId: request.threadId, seq };
}
