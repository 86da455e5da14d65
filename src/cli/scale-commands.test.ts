/**
 * `flowstack worker` and `flowstack serve`, scaled and on the embedded default: configuration by
 * environment, schedules fired from the SQLite store, and a worker that takes a turn off the real queue
 * and runs it on the real PostgreSQL store.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTurnQueue } from '../adapters/bullmq/index.js';
import type { TurnResult } from '../agent/index.js';
import { createSqliteStore } from '../store/index.js';
import { describeWithService, serviceAvailable } from '../test/require-service.js';
import type { CliIo } from './cli-io.js';
import { exitCodes } from './exit-codes.js';
import { runCli } from './run-cli.js';

const pgUrl = process.env.FLOWSTACK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.FLOWSTACK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const available = (await serviceAvailable('postgres', pgUrl)) && (await serviceAvailable('redis', redisUrl));

function fakeIo(env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  let stop: () => void = () => undefined;
  const io: CliIo = {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    errWrite: (text) => err.push(text),
    interactive: false,
    env,
    stdin: Readable.from([]),
    stdout: new PassThrough(),
    stopped: new Promise((resolve) => {
      stop = resolve;
    }),
  };
  return { io, out, err, stop: () => stop() };
}

describe('flowstack worker: configuration', () => {
  it('asks for DATABASE_URL and REDIS_URL', async () => {
    const run = fakeIo({ REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(await runCli(['worker'], run.io)).toBe(exitCodes.usage);
    expect(run.err.join('\n')).toContain('set DATABASE_URL');
  });

  it('refuses a concurrency that is not a whole number', async () => {
    const run = fakeIo({ DATABASE_URL: 'postgres://x@127.0.0.1:1/db', REDIS_URL: 'redis://127.0.0.1:1' });
    expect(await runCli(['worker', '--concurrency', 'lots'], run.io)).toBe(exitCodes.usage);
    expect(run.err.join('\n')).toContain('--concurrency');
  });

  it('serve refuses a queue without PostgreSQL, where workers could not see its threads', async () => {
    const run = fakeIo({ REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(await runCli(['serve', '--port', '0'], run.io)).toBe(exitCodes.usage);
    expect(run.err.join('\n')).toContain('set DATABASE_URL too');
  });
});

describe('flowstack serve on the embedded default', () => {
  it('fires the schedules kept in its SQLite store', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'flowstack-serve-')), 'flowstack.db');
    const setup = createSqliteStore({ path });
    await setup.saveSchedule?.({
      specVersion: 1,
      id: 'morning-flights',
      threadId: 'scheduled-1',
      text: 'flights to Lisbon on 2026-12-05',
      at: Date.now(),
      nextRunAt: Date.now(),
      runs: 0,
      createdAt: Date.now(),
    });
    await setup.close();
    const api = fakeIo({ FLOWSTACK_TOKENS: 'alice=token-of-alice-0123456789' });
    const exited = runCli(['serve', 'travel', '--db', path, '--port', '0'], api.io);
    const reader = createSqliteStore({ path });
    try {
      let messages = 0;
      for (let i = 0; i < 400 && messages < 2; i++) {
        messages = (await reader.readHistory('scheduled-1')).filter(
          (entry) => entry.kind === 'message',
        ).length;
        if (messages < 2) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(messages).toBe(2);
      // A one-off schedule is gone once it fired.
      expect(await reader.listSchedules?.()).toEqual([]);
    } finally {
      api.stop();
      await reader.close();
    }
    expect(await exited).toBe(exitCodes.ok);
  });
});

describeWithService(
  { kind: 'postgres', url: pgUrl, available, describe },
  'flowstack worker on PostgreSQL and Redis',
  () => {
    const run = randomBytes(4).toString('hex');
    const schema = `flowstack_cli_${run}`;
    const prefix = `fscli${run}`;

    afterAll(async () => {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
      const admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    });

    it('runs the example’s turns from the queue until stopped', async () => {
      const worker = fakeIo({
        DATABASE_URL: pgUrl,
        REDIS_URL: redisUrl,
        FLOWSTACK_PG_SCHEMA: schema,
        FLOWSTACK_QUEUE_PREFIX: prefix,
      });
      const exited = runCli(['worker', 'travel', '--concurrency', '2'], worker.io);
      const queue = createTurnQueue<TurnResult>({ redisUrl, prefix });
      try {
        const turn = await queue.send({ threadId: 'cli-1', text: 'flights to Lisbon on 2026-12-05' });
        expect(turn.reply).toContain('Found 2 flights to Lisbon on 2026-12-05');
      } finally {
        worker.stop();
        await queue.close();
      }
      expect(await exited).toBe(exitCodes.ok);
      expect(worker.out.join('\n')).toMatch(
        /flowstack worker .*: the travel example takes turns from the queue/,
      );
    });

    it('serve with DATABASE_URL and REDIS_URL enqueues the turn; a worker answers it', async () => {
      const env = {
        DATABASE_URL: pgUrl,
        REDIS_URL: redisUrl,
        FLOWSTACK_PG_SCHEMA: schema,
        FLOWSTACK_QUEUE_PREFIX: prefix,
        FLOWSTACK_TOKENS: 'alice=token-of-alice-0123456789',
      };
      const worker = fakeIo(env);
      const api = fakeIo(env);
      // What the worker publishes for the API processes' streams, read straight off Redis.
      const listener = new Redis(redisUrl);
      const published: string[] = [];
      listener.on('message', (_channel: string, message: string) => published.push(message));
      await listener.subscribe(`${prefix}:events`);
      const workerExited = runCli(['worker', 'travel', '--concurrency', '1'], worker.io);
      const apiExited = runCli(['serve', 'travel', '--port', '0'], api.io);
      try {
        let url: string | undefined;
        for (let i = 0; i < 200 && !url; i++) {
          url = /at (http:\/\/\S+)/.exec(api.out.join('\n'))?.[1];
          if (!url) await new Promise((resolve) => setTimeout(resolve, 25));
        }
        expect(api.err.join('\n')).toContain(`turns go to the queue '${prefix}'`);
        const response = await fetch(`${url}/v1/threads`, {
          method: 'POST',
          headers: { authorization: 'Bearer token-of-alice-0123456789', 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'flights to Porto on 2026-12-07' }),
        });
        expect(response.status).toBe(201);
        const turn = (await response.json()) as { reply: string; threadId: string };
        expect(turn.reply).toContain('Porto');
        // The worker's events went out on the fan-out channel, the final response among them.
        for (let i = 0; i < 200 && !published.some((m) => m.includes('final-response')); i++)
          await new Promise((resolve) => setTimeout(resolve, 25));
        expect(published.some((m) => m.includes(turn.threadId) && m.includes('final-response'))).toBe(true);
      } finally {
        api.stop();
        worker.stop();
        listener.disconnect();
      }
      expect(await apiExited).toBe(exitCodes.ok);
      expect(await workerExited).toBe(exitCodes.ok);
    });
  },
);
