/**
 * Per-thread order of queued turns (docs/decisions/0023-turn-queue.md): every turn gets the next
 * sequence number of its thread when it is enqueued, and a worker runs turn n only once turn n − 1 has
 * finished. The counters live in one Redis hash per thread, changed only by the Lua scripts below, so
 * that every step is atomic. The store's lease still guarantees that one process at a time writes a
 * thread; these counters only decide which of the thread's turns goes next.
 */
import type { Redis } from 'ioredis';

// Fields: next (last number given), done (last number finished), req:<request id> → number,
// job:<n> → job id, at:<n> → when turn n was numbered (ms).
const assignScript = `
local seq = redis.call('HGET', KEYS[1], 'req:' .. ARGV[1])
if seq then return tonumber(seq) end
seq = redis.call('HINCRBY', KEYS[1], 'next', 1)
redis.call('HSET', KEYS[1], 'req:' .. ARGV[1], seq, 'job:' .. seq, ARGV[2], 'at:' .. seq, ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return seq`;

const finishScript = `
local seq = tonumber(ARGV[1])
local done = tonumber(redis.call('HGET', KEYS[1], 'done') or '0')
if done < seq then redis.call('HSET', KEYS[1], 'done', seq) end
redis.call('HDEL', KEYS[1], 'req:' .. ARGV[2], 'job:' .. seq, 'at:' .. seq)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return redis.call('HGET', KEYS[1], 'job:' .. (seq + 1))`;

// Skips turn n when it can never finish (its job is gone): only if turn n − 1 is the last one done.
const skipScript = `
local seq = tonumber(ARGV[1])
local done = tonumber(redis.call('HGET', KEYS[1], 'done') or '0')
if done ~= seq - 1 then return 0 end
redis.call('HSET', KEYS[1], 'done', seq)
redis.call('HDEL', KEYS[1], 'job:' .. seq, 'at:' .. seq)
return 1`;

/** Thread hashes outlive their last turn by this long (then a new turn starts again at 1). */
const keepMs = 30 * 24 * 60 * 60 * 1000;

export interface ThreadOrder {
  /** The turn's number; the same request id gets the same number again until it has finished. */
  assign(options: { threadId: string; requestId: string; jobId: string; now: number }): Promise<number>;
  /** The last finished number, and the job and numbering time of the turn after it. */
  read(threadId: string): Promise<{ done: number; next?: { seq: number; jobId?: string; at?: number } }>;
  /** Marks turn `seq` finished; returns the job id of the turn after it, when there is one. */
  finish(options: { threadId: string; seq: number; requestId: string }): Promise<string | undefined>;
  /** Marks turn `seq` finished without running it; false when the thread has moved on meanwhile. */
  skip(options: { threadId: string; seq: number }): Promise<boolean>;
}

export function createThreadOrder(redis: Redis, keyPrefix: string): ThreadOrder {
  const key = (threadId: string) => `${keyPrefix}:thread:${threadId}`;
  return {
    async assign({ threadId, requestId, jobId, now }) {
      return Number(await redis.eval(assignScript, 1, key(threadId), requestId, jobId, now, keepMs));
    },
    async read(threadId) {
      const done = Number((await redis.hget(key(threadId), 'done')) ?? 0);
      const seq = done + 1;
      const [jobId, at] = await redis.hmget(key(threadId), `job:${seq}`, `at:${seq}`);
      return {
        done,
        next: { seq, ...(jobId ? { jobId } : {}), ...(at ? { at: Number(at) } : {}) },
      };
    },
    async finish({ threadId, seq, requestId }) {
      const next = await redis.eval(finishScript, 1, key(threadId), seq, requestId, keepMs);
      return typeof next === 'string' ? next : undefined;
    },
    async skip({ threadId, seq }) {
      return Number(await redis.eval(skipScript, 1, key(threadId), seq)) === 1;
    },
  };
}
