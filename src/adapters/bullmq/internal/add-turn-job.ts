/**
 * Puts one turn on the queue: numbers it among its thread's turns, then adds the job under an id made
 * from the request id. Both steps are idempotent by request id, so enqueuing the same request twice (a
 * client retry, a scheduled job redelivered) yields one job.
 */
import type { Queue } from 'bullmq';
import { InputError } from '../../../errors/index.js';
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
  // The queue keeps the first job of a request id and would answer its result to another message sent
  // under the same id; such a reused id is refused, as the agent refuses it (ADR 0065).
  const existing = (await queue.getJob(jobId))?.data as Partial<TurnJobData> | undefined;
  if (existing?.kind === 'turn' && existing.text !== request.text)
    throw new InputError({
      reason: 'request_reused',
      message: `The request id '${request.requestId}' was already used for another message; send a new id for a new message.`,
    });
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
    // BullMQ's own jitter: 0.5 takes a random share of up to half off each wait, the equal jitter of
    // every other backoff of flowstack (docs/decisions/0087-logger-and-jittered-backoff.md).
    backoff: { type: 'exponential', delay: 1_000, jitter: 0.5 },
    // Results stay readable for a while (a client that reconnects), then go.
    removeOnComplete: { age: 3_600, count: 10_000 },
    removeOnFail: { age: 24 * 3_600 },
  });
  return { jobId, requestId: request.requestId, threadId: request.threadId, seq };
}
