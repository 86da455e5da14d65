/**
 * The turn queue and worker in one process, on real Redis: results come back to the enqueuer, the same
 * request id replays instead of repeating, a worker's error comes back typed, a thread whose earlier turn
 * was numbered but never added does not wait for ever, and scheduled flows fire as delayed and repeating
 * jobs. Missing drivers and an unreachable Redis are typed errors.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnResult } from '../../agent/index.js';
import { ConfigurationError, InputError } from '../../errors/index.js';
import { createServer } from '../../server/index.js';
import { createMemoryStore } from '../../store/index.js';
import { describeWithService, serviceAvailable } from '../../test/require-service.js';
import { createOrderAgent, readOrderEffects } from './fixtures/order-domain.js';
import {
  createTurnQueue,
  createTurnWorker,
  QueueUnavailableError,
  TurnJobError,
  type TurnQueue,
  TurnWaitTimeoutError,
  type TurnWorker,
} from './index.js';
import { createThreadOrder } from './internal/thread-order.js';

const redisUrl = process.env.FLOWSTACK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const available = await serviceAvailable('redis', redisUrl);

type Turn = TurnResult;

describe('flowstack/bullmq without its drivers or its server', () => {
  it('says what to install when bullmq is missing', async () => {
    const missing = Object.assign(new Error("Cannot find package 'bullmq'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const queue = createTurnQueue({
      importDrivers: () => Promise.reject(missing),
    });
    const error = await queue.ready().catch((caught: unknown) => caught);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('install bullmq and ioredis to use flowstack/bullmq');
  });

  it('fails with a typed error naming the address (never the password) when Redis is not there', async () => {
    const queue = createTurnQueue({ redisUrl: 'redis://user:s3cret@127.0.0.1:1' });
    const error = await queue.ready().catch((caught: unknown) => caught);
    expect(QueueUnavailableError.isInstance(error)).toBe(true);
    expect((error as QueueUnavailableError).address).toBe('127.0.0.1:1');
    expect((error as Error).message).not.toContain('s3cret');
    await queue.close();
  });
});

describeWithService(
  { kind: 'redis', url: redisUrl, available, describe },
  'flowstack/bullmq on Redis',
  () => {
    const prefix = `fsq${randomBytes(4).toString('hex')}`;
    const effectsDir = mkdtempSync(join(tmpdir(), 'flowstack-queue-'));
    const store = createMemoryStore();
    const agent = createOrderAgent({ store, effectsDir, worker: 'local' });
    let queue: TurnQueue<Turn>;
    let worker: TurnWorker;

    beforeAll(async () => {
      queue = createTurnQueue<Turn>({ redisUrl, prefix });
      worker = createTurnWorker({ agent, redisUrl, prefix, orderPollMs: 50, orphanAfterMs: 200 });
      await Promise.all([queue.ready(), worker.ready()]);
    });

    afterAll(async () => {
      await worker?.close();
      await queue?.close();
      await agent.close();
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    it('runs a turn on a worker and brings its result back', async () => {
      const turn = await queue.send({ threadId: 'a1', text: 'order apples 1' });
      expect(turn).toMatchObject({ status: 'completed', reply: expect.stringContaining('Ordered apples') });
      expect(readOrderEffects(effectsDir).filter((e) => e.item === 'apples')).toHaveLength(1);
    });

    it('enqueues the same request id once, and a redelivered request replays rather than repeats', async () => {
      const first = await queue.enqueue({ threadId: 'a2', text: 'order pears 1', requestId: 'req-pears' });
      const again = await queue.enqueue({ threadId: 'a2', text: 'order pears 1', requestId: 'req-pears' });
      expect(again).toEqual(first);
      const turn = await queue.waitFor(first.jobId);
      // Sent again after it finished (a client that retried late): the agent answers from its log.
      const late = await queue.send({ threadId: 'a2', text: 'order pears 1', requestId: 'req-pears' });
      expect(late.turnId).toBe(turn.turnId);
      expect(late.reply).toBe(turn.reply);
      expect(readOrderEffects(effectsDir).filter((e) => e.item === 'pears')).toHaveLength(1);
    });

    it('refuses a request id enqueued again with another message, instead of answering the first', async () => {
      await queue.enqueue({ threadId: 'a2b', text: 'order figs 1', requestId: 'req-figs' });
      const error = await queue
        .send({ threadId: 'a2b', text: 'order figs 9', requestId: 'req-figs' })
        .catch((caught: unknown) => caught);
      expect(InputError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'input_request_reused' });
    });

    it('runs one thread’s turns in the order they were enqueued', async () => {
      const enqueued = [];
      for (let n = 1; n <= 6; n++)
        enqueued.push(await queue.enqueue({ threadId: 'a3', text: `order plums-${n} ${n}` }));
      expect(enqueued.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      await Promise.all(enqueued.map((e) => queue.waitFor(e.jobId)));
      const sent = (await store.readHistory('a3'))
        .filter((entry) => entry.kind === 'message')
        .map((entry) => JSON.parse(entry.data) as { role: string; text: string })
        .filter((m) => m.role === 'user')
        .map((m) => m.text);
      expect(sent).toEqual([1, 2, 3, 4, 5, 6].map((n) => `order plums-${n} ${n}`));
    });

    it('brings a worker’s error back typed, and the thread goes on', async () => {
      const error = await queue.send({ threadId: 'a4', text: '   ' }).catch((caught: unknown) => caught);
      expect(TurnJobError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ remoteName: 'InputError', code: 'input_empty', threadId: 'a4' });
      await expect(queue.send({ threadId: 'a4', text: 'order figs 1' })).resolves.toMatchObject({
        status: 'completed',
      });
    });

    it('skips a turn that was numbered but never added (its enqueuer died), so the next one runs', async () => {
      const order = createThreadOrder(new Redis(redisUrl), `${prefix}:turns:flowstack`);
      await order.assign({ threadId: 'a5', requestId: 'lost', jobId: 'lost-job', now: Date.now() - 1_000 });
      const turn = await queue.send({ threadId: 'a5', text: 'order kiwis 1' });
      expect(turn.status).toBe('completed');
      expect((await order.read('a5')).done).toBe(2);
    });

    it('stops waiting with a typed error naming the job’s state when no worker answers in time', async () => {
      const idle = createTurnQueue<Turn>({ redisUrl, prefix, queueName: 'nobody-works-here' });
      try {
        const { jobId } = await idle.enqueue({ threadId: 'a9', text: 'order grapes 1' });
        const error = await idle.waitFor(jobId, { timeoutMs: 100 }).catch((caught: unknown) => caught);
        expect(TurnWaitTimeoutError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ jobId, state: 'waiting', code: 'turn_wait_timeout' });
        const aborted = new AbortController();
        const waiting = idle.waitFor(jobId, { signal: aborted.signal });
        aborted.abort(new Error('the client went away'));
        await expect(waiting).rejects.toThrow('the client went away');
      } finally {
        await idle.close();
      }
    });

    it('lets an API server enqueue its turns: a worker runs them, the server answers with the result', async () => {
      // The API process has the agent for reads; its turns run on the worker's agent.
      const apiAgent = createOrderAgent({ store, effectsDir, worker: 'api' });
      const server = createServer({
        agent: apiAgent,
        turns: queue,
        auth: { tokens: new Map([['tok', 'alice']]) },
      });
      const { url } = await server.listen();
      try {
        const response = await fetch(`${url}/v1/threads`, {
          method: 'POST',
          headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'order melons 1' }),
        });
        expect(response.status).toBe(201);
        const body = (await response.json()) as { threadId: string; reply: string; status: string };
        expect(body).toMatchObject({ status: 'completed', reply: expect.stringContaining('Ordered melons') });
        expect(readOrderEffects(effectsDir).filter((e) => e.item === 'melons')).toEqual([
          expect.objectContaining({ worker: 'local' }),
        ]);
        // The thread belongs to the principal that sent it, through the queue too.
        const thread = await fetch(`${url}/v1/threads/${body.threadId}`, {
          headers: { authorization: 'Bearer tok' },
        });
        expect(thread.status).toBe(200);
      } finally {
        await server.close();
      }
    });

    it('queues a message sent while the thread’s turn runs, instead of refusing it with 409', async () => {
      const apiAgent = createOrderAgent({ store, effectsDir, worker: 'api' });
      const server = createServer({
        agent: apiAgent,
        turns: queue,
        auth: { tokens: new Map([['tok', 'alice']]) },
      });
      const { url } = await server.listen();
      const post = (path: string, text: string) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
          body: JSON.stringify({ text }),
        });
      try {
        const created = (await (await post('/v1/threads', 'order cherries-1 1')).json()) as {
          threadId: string;
        };
        const messages = `/v1/threads/${created.threadId}/messages`;
        // Three messages at once on one API process: before, the second and third were 409.
        const sent = ['order cherries-2 2', 'order cherries-3 3', 'order cherries-4 4'];
        const responses = await Promise.all(sent.map((text) => post(messages, text)));
        expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
        const replies = await Promise.all(responses.map((r) => r.json() as Promise<{ reply: string }>));
        expect(replies.map((r) => r.reply)).toEqual(
          sent.map((_, i) => expect.stringContaining(`cherries-${i + 2}`)),
        );
        // One turn at a time: each message is followed by its own reply, never interleaved.
        const dialogue = (await store.readHistory(created.threadId))
          .filter((entry) => entry.kind === 'message')
          .map((entry) => JSON.parse(entry.data) as { role: string });
        expect(dialogue.map((m) => m.role)).toEqual([
          'user',
          'assistant',
          'user',
          'assistant',
          'user',
          'assistant',
          'user',
          'assistant',
        ]);
        const cherries = readOrderEffects(effectsDir).filter((e) => e.item.startsWith('cherries'));
        expect(cherries.map((e) => e.item).sort()).toEqual([
          'cherries-1',
          'cherries-2',
          'cherries-3',
          'cherries-4',
        ]);
      } finally {
        await server.close();
      }
    });

    it('runs a Schedule flow whose schedule_task call becomes a delayed job, fired as a turn later', async () => {
      const scheduling = createOrderAgent({ store, effectsDir, worker: 'local', scheduler: queue });
      const turn = await scheduling.send({ threadId: 'b1', text: 'reorder quinces in 100 ms' });
      expect(turn.status).toBe('completed');
      expect((await queue.listSchedules()).map((s) => s.id)).toContain('reorder-quinces');
      const quinces = () => readOrderEffects(effectsDir).filter((e) => e.item === 'quinces');
      for (let i = 0; i < 200 && quinces().length < 1; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(quinces()).toHaveLength(1);
      expect((await queue.listSchedules()).map((s) => s.id)).not.toContain('reorder-quinces');
    });

    it('fires scheduled flows as a delayed job (once) and a job scheduler (repeating)', async () => {
      const now = Date.now();
      await queue.schedule({ id: 'once', threadId: 'a6', text: 'order limes 1', at: now + 100 });
      await queue.schedule({ id: 'every', threadId: 'a7', text: 'order dates 1', everyMs: 1_000, limit: 2 });
      const listed = await queue.listSchedules();
      expect(listed.map((s) => s.id).sort()).toEqual(['every', 'once']);
      // Replacing by id, then removing: nothing of it fires.
      await queue.schedule({ id: 'gone', threadId: 'a8', text: 'order nuts 1', at: now + 200 });
      expect(await queue.unschedule('gone')).toBe(true);
      expect(await queue.unschedule('gone')).toBe(false);
      const messagesOf = async (threadId: string) =>
        (await store.readHistory(threadId)).filter(
          (entry) => entry.kind === 'message' && JSON.parse(entry.data).role === 'user',
        ).length;
      for (let i = 0; i < 200 && ((await messagesOf('a6')) < 1 || (await messagesOf('a7')) < 2); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await messagesOf('a6')).toBe(1);
      expect(await messagesOf('a7')).toBe(2);
      expect(await messagesOf('a8')).toBe(0);
      expect(readOrderEffects(effectsDir).filter((e) => e.item === 'limes')).toHaveLength(1);
      expect(readOrderEffects(effectsDir).filter((e) => e.item === 'dates')).toHaveLength(2);
      expect((await queue.listSchedules()).map((s) => s.id)).toEqual([]);

      // The same one-off id scheduled again after it fired is a new firing, not a repeat of the old one.
      await queue.schedule({ id: 'once', threadId: 'a6', text: 'order limes 2', at: Date.now() + 50 });
      for (let i = 0; i < 200 && (await messagesOf('a6')) < 2; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await messagesOf('a6')).toBe(2);
    });

    it('fires a cron schedule as a job scheduler with its pattern and time zone, up to its limit', async () => {
      // Six fields, seconds first: every second, twice.
      const entry = await queue.schedule({
        id: 'cron',
        threadId: 'a10',
        text: 'order figs 1',
        cron: '* * * * * *',
        timezone: 'Europe/Paris',
        limit: 2,
      });
      expect(entry).toMatchObject({ cron: '* * * * * *', timezone: 'Europe/Paris', runs: 0 });
      expect(entry.nextRunAt - Date.now()).toBeLessThanOrEqual(1_000);
      expect((await queue.listSchedules()).map((s) => s.id)).toContain('cron');
      const messages = async () =>
        (await store.readHistory('a10')).filter(
          (e) => e.kind === 'message' && JSON.parse(e.data).role === 'user',
        ).length;
      for (let i = 0; i < 200 && (await messages()) < 2; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(await messages()).toBe(2);
      expect((await queue.listSchedules()).map((s) => s.id)).not.toContain('cron');
    });
  },
);
