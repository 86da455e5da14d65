/**
 * What the turn queue puts on Redis: the data of a turn job and of a scheduled job, and the envelope a
 * worker returns. Plain JSON, so that any process (another flowstack version, a dashboard) can read it.
 */

/** One user message for one thread; `requestId` is the job id, so a redelivered job replays the turn. */
export interface TurnJobData {
  kind: 'turn';
  threadId: string;
  text: string;
  requestId: string;
  principal?: string;
  /** The turn's place among the thread's queued turns (1-based); turns run in this order. */
  seq: number;
}

/** A scheduled flow firing: the worker enqueues it as the thread's next turn (see `schedule-job.ts`). */
export interface ScheduledJobData {
  kind: 'scheduled';
  scheduleId: string;
  threadId: string;
  text: string;
  principal?: string;
}

export type QueueJobData = TurnJobData | ScheduledJobData;

/** A worker error as it travels back to the enqueuer. */
export interface TurnJobFailure {
  name: string;
  code: string;
  message: string;
}

/**
 * What a turn job returns: the turn's result, or the error that ended it for good (a bad input, an
 * unknown thread), which worker ran it, and how long the agent took (`runMs`, without queueing).
 */
export type TurnJobOutcome<Result> =
  | { ok: true; result: Result; worker: string; runMs?: number }
  | { ok: false; error: TurnJobFailure; worker: string; runMs?: number };

/** Where the queue lives on Redis. */
export interface TurnQueueConnection {
  /** Default `process.env.REDIS_URL`, else `redis://127.0.0.1:6379`. */
  redisUrl?: string;
  /** Prefix of every key (BullMQ's and flowstack's own); default `flowstack`. */
  prefix?: string;
  /** Default `turns`. */
  queueName?: string;
}

/** The connection with its defaults filled in. */
export function resolveConnection(connection: TurnQueueConnection = {}): Required<TurnQueueConnection> {
  return {
    redisUrl: connection.redisUrl ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    prefix: connection.prefix ?? 'flowstack',
    queueName: connection.queueName ?? 'turns',
  };
}

/** A turn to run: what `agent.send` takes, without the in-process parts. */
export interface TurnRequest {
  threadId: string;
  text: string;
  principal?: string;
  /** Stable across retries of the same request (an HTTP idempotency key); default a new id. */
  requestId?: string;
}

/** A turn on the queue. */
export interface EnqueuedTurn {
  jobId: string;
  requestId: string;
  threadId: string;
  /** Its place among the thread's queued turns. */
  seq: number;
}
