/**
 * The acceptance test of issue 9 (DESIGN.md §7): three worker processes on one PostgreSQL and one Redis
 * run 200 threads of 5 turns each, enqueued all at once (each thread's turns in order, threads at the
 * same time). One worker is killed with SIGKILL mid-run. Every turn still completes, each thread's turns
 * ran in the order they were enqueued, and each non-idempotent `place_order` happened exactly once —
 * the turns the dead worker held were taken over by the others and replayed from the store.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { build } from 'esbuild';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithService, serviceAvailable } from '../../test/require-service.js';
import { createPostgresStore, type PostgresStore } from '../postgres/index.js';
import { readOrderEffects } from './fixtures/order-domain.js';
import { createTurnQueue, type TurnQueue } from './index.js';

const pgUrl = process.env.FLOWSTACK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.FLOWSTACK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const pgAvailable = await serviceAvailable('postgres', pgUrl);
const redisAvailable = await serviceAvailable('redis', redisUrl);

const root = resolve(import.meta.dirname, '../../..');
const bundle = join(root, 'node_modules/.cache/flowstack/turn-worker-child.mjs');
const run = randomBytes(4).toString('hex');
const schema = `flowstack_scale_${run}`;
const prefix = `fsscale${run}`;
const effectsDir = mkdtempSync(join(tmpdir(), 'flowstack-scale-'));
const threads = 200;
const turnsPerThread = 5;
// Short lock and lease, so the dead worker's turns are taken over within seconds.
const takeoverMs = 2_000;

type TurnResultLike = { status: string; reply: string };

function startWorker(name: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bundle], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: pgUrl,
      FLOWSTACK_PG_SCHEMA: schema,
      REDIS_URL: redisUrl,
      FLOWSTACK_QUEUE_PREFIX: prefix,
      FLOWSTACK_EFFECTS_DIR: effectsDir,
      FLOWSTACK_WORKER: name,
      FLOWSTACK_TAKEOVER_MS: String(takeoverMs),
      FLOWSTACK_CONCURRENCY: '8',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return new Promise((ready, failed) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (String(chunk).includes('ready')) ready(child);
    });
    child.once('exit', (code, signal) =>
      failed(new Error(`${name} exited (${code ?? signal}) before it was ready`)),
    );
  });
}

function exitOf(child: ChildProcess): Promise<NodeJS.Signals | number | null> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve(child.signalCode ?? child.exitCode);
  return new Promise((done) => child.once('exit', (code, signal) => done(signal ?? code)));
}

describeWithService(
  { kind: 'postgres', url: pgUrl, available: pgAvailable, describe },
  'scale-out on PostgreSQL',
  () => {
    describeWithService(
      { kind: 'redis', url: redisUrl, available: redisAvailable, describe },
      'and Redis',
      () => {
        const workers: ChildProcess[] = [];
        let queue: TurnQueue<TurnResultLike>;
        let store: PostgresStore;

        beforeAll(async () => {
          mkdirSync(join(root, 'node_modules/.cache/flowstack'), { recursive: true });
          await build({
            entryPoints: [join(root, 'src/adapters/bullmq/fixtures/turn-worker-child.ts')],
            bundle: true,
            platform: 'node',
            format: 'esm',
            target: 'node20',
            packages: 'external',
            outfile: bundle,
            logLevel: 'silent',
          });
          // The schema exists before three processes race to create it.
          store = createPostgresStore({ connectionString: pgUrl, schema });
          await store.ready();
          workers.push(...(await Promise.all(['w1', 'w2', 'w3'].map((name) => startWorker(name)))));
          queue = createTurnQueue<TurnResultLike>({ redisUrl, prefix });
        }, 60_000);

        afterAll(async () => {
          for (const child of workers)
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await Promise.all(workers.map((child) => exitOf(child)));
          await queue?.close();
          await store?.close();
          const redis = new Redis(redisUrl);
          const keys = await redis.keys(`${prefix}:*`);
          if (keys.length > 0) await redis.del(...keys);
          redis.disconnect();
          const admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
          await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          await admin.end();
        }, 60_000);

        it('runs 200 threads × 5 turns on 3 workers, in order, through a SIGKILL, each order placed once', async () => {
          const jobs: { threadId: string; n: number; jobId: string }[] = [];
          // Each thread enqueues its turns one after the other; the threads all at once.
          await Promise.all(
            Array.from({ length: threads }, async (_, t) => {
              for (let n = 1; n <= turnsPerThread; n++) {
                const threadId = `t${t + 1}`;
                const enqueued = await queue.enqueue({
                  threadId,
                  text: `order i${t + 1}-${n} ${n}`,
                  requestId: `${threadId}-turn${n}`,
                });
                expect(enqueued.seq).toBe(n);
                jobs.push({ threadId, n, jobId: enqueued.jobId });
              }
            }),
          );
          const [victim] = workers;
          let finished = 0;
          let killedAt: number | undefined;
          const results = await Promise.all(
            jobs.map(async (job) => {
              const result = await queue.waitFor(job.jobId, { timeoutMs: 120_000 });
              finished += 1;
              // Mid-run: a quarter of the turns are done, the victim holds turns it has started.
              if (finished === Math.floor(jobs.length / 4) && victim) {
                killedAt = finished;
                victim.kill('SIGKILL');
              }
              return { ...job, result };
            }),
          );
          expect(killedAt).toBeDefined();
          expect(await exitOf(victim as ChildProcess)).toBe('SIGKILL');

          // Every turn completed with its own answer.
          const failed = results.filter(
            (r) =>
              r.result.status !== 'completed' || !r.result.reply.includes(`i${r.threadId.slice(1)}-${r.n}`),
          );
          expect(
            failed.map((r) => ({
              thread: r.threadId,
              n: r.n,
              status: r.result.status,
              reply: r.result.reply,
            })),
          ).toEqual([]);

          // Each thread's turns ran in order: its history has the five messages in the order sent.
          const outOfOrder: string[] = [];
          for (let t = 1; t <= threads; t++) {
            const history = await store.readHistory(`t${t}`);
            const sent = history
              .filter((entry) => entry.kind === 'message')
              .map((entry) => JSON.parse(entry.data) as { role: string; text: string })
              .filter((message) => message.role === 'user')
              .map((message) => message.text);
            const expected = Array.from(
              { length: turnsPerThread },
              (_, i) => `order i${t}-${i + 1} ${i + 1}`,
            );
            if (JSON.stringify(sent) !== JSON.stringify(expected))
              outOfOrder.push(`t${t}: ${sent.join(' | ')}`);
          }
          expect(outOfOrder).toEqual([]);

          // Each non-idempotent side effect happened once: one order per turn, none twice.
          const effects = readOrderEffects(effectsDir);
          const byItem = new Map<string, number>();
          for (const effect of effects) byItem.set(effect.item, (byItem.get(effect.item) ?? 0) + 1);
          expect([...byItem.values()].filter((count) => count !== 1)).toEqual([]);
          expect(byItem.size).toBe(threads * turnsPerThread);
          expect(new Set(effects.map((e) => e.key)).size).toBe(effects.length);

          // The dead worker's turns were taken over: jobs it held stalled and another worker finished them.
          const bull = new Queue('turns', { connection: { url: redisUrl }, prefix });
          const stalled = (await Promise.all(jobs.map((job) => bull.getJob(job.jobId)))).filter(
            (job) => (job?.stalledCounter ?? 0) > 0,
          );
          await bull.close();
          expect(stalled.length).toBeGreaterThan(0);
          expect(stalled.every((job) => job?.processedBy !== 'w1')).toBe(true);
        }, 150_000);
      },
    );
  },
);
