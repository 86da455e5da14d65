/**
 * How long a killed worker's turn takes to be picked up by another worker (issue 31, item 11): the job's
 * lock must run out and a stalled-job check must see it. Both are options of the worker
 * (`lockDurationMs`, `stalledIntervalMs`); with short ones, a turn whose worker was SIGKILLed mid-turn is
 * taken over within the lock plus two checks.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithService, serviceAvailable } from '../../test/require-service.js';
import { createTurnQueue, createTurnWorker, type TurnQueue, type TurnWorker } from './index.js';

const redisUrl = process.env.FLOWSTACK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const available = await serviceAvailable('redis', redisUrl);
const root = resolve(import.meta.dirname, '../../..');
const bundle = join(root, 'node_modules/.cache/flowstack/hanging-worker-child.mjs');
const lockDurationMs = 2_000;
const stalledIntervalMs = 250;

type Turn = { status: string; reply: string };

/** Starts the worker whose turns never end; resolves once it takes jobs, with a wait for its output. */
function startHangingWorker(
  prefix: string,
): Promise<{ child: ChildProcess; saw: (text: string) => Promise<void> }> {
  const child = spawn(process.execPath, [bundle], {
    cwd: root,
    env: {
      ...process.env,
      REDIS_URL: redisUrl,
      FLOWSTACK_QUEUE_PREFIX: prefix,
      FLOWSTACK_LOCK_MS: String(lockDurationMs),
      FLOWSTACK_STALLED_MS: String(stalledIntervalMs),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  let output = '';
  const waiters: { text: string; done: () => void }[] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    output += String(chunk);
    for (const waiter of waiters.splice(0)) {
      if (output.includes(waiter.text)) waiter.done();
      else waiters.push(waiter);
    }
  });
  const saw = (text: string) =>
    output.includes(text) ? Promise.resolve() : new Promise<void>((done) => waiters.push({ text, done }));
  return new Promise((ready, failed) => {
    child.once('exit', (code, signal) => failed(new Error(`the worker exited (${code ?? signal}) early`)));
    void saw('ready').then(() => ready({ child, saw }));
  });
}

describeWithService(
  { kind: 'redis', url: redisUrl, available, describe },
  'taking over a killed worker’s turn',
  () => {
    const prefix = `fstake${randomBytes(4).toString('hex')}`;
    let queue: TurnQueue<Turn>;
    let taker: TurnWorker | undefined;
    let victim: ChildProcess | undefined;

    beforeAll(async () => {
      mkdirSync(join(root, 'node_modules/.cache/flowstack'), { recursive: true });
      await build({
        entryPoints: [join(root, 'src/adapters/bullmq/fixtures/hanging-worker-child.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        outfile: bundle,
        logLevel: 'silent',
      });
      queue = createTurnQueue<Turn>({ redisUrl, prefix });
      await queue.ready();
    }, 60_000);

    afterAll(async () => {
      if (victim && victim.exitCode === null && victim.signalCode === null) victim.kill('SIGKILL');
      await taker?.close();
      await queue?.close();
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });

    it('takes the turn over within the configured lock and stalled-check intervals', async () => {
      const started = await startHangingWorker(prefix);
      victim = started.child;
      const { jobId } = await queue.enqueue({
        threadId: 'takeover',
        text: 'hello',
        requestId: 'req-takeover',
      });
      await started.saw('running req-takeover');

      const ran: string[] = [];
      taker = createTurnWorker({
        agent: {
          send: async ({ requestId }) => {
            ran.push(requestId);
            return { status: 'completed', reply: 'taken over' };
          },
        },
        redisUrl,
        prefix,
        name: 'taker',
        lockDurationMs,
        stalledIntervalMs,
      });
      await taker.ready();
      const killedAt = Date.now();
      victim.kill('SIGKILL');
      const result = await queue.waitFor(jobId, { timeoutMs: 20_000 });
      const tookMs = Date.now() - killedAt;

      expect(result).toMatchObject({ status: 'completed', reply: 'taken over' });
      expect(ran).toEqual(['req-takeover']);
      // The lock runs out, then a check or two sees the job (plus a little for Redis round trips).
      expect(tookMs).toBeLessThan(lockDurationMs + 2 * stalledIntervalMs + 700);
    }, 30_000);
  },
);
