/**
 * The scale-out load benchmark (issue 9; docs/benchmarks.md "Scale-out"). With the scripted model, on one
 * PostgreSQL and one Redis, for 1 and for 3 `flowstack worker` processes (the order agent of the tests,
 * 8 turns at a time each):
 *
 * - throughput: 200 threads × 5 turns enqueued at once (each thread's turns in order), turns per second
 *   from the first enqueue to the last answer;
 * - per-turn overhead of the queue: turns sent one at a time, each on a new thread; overhead = the
 *   client's enqueue-to-answer time minus the time the worker's agent spent on the turn (p50, p99);
 * - memory per idle suspended thread: threads whose turn waits for an approval, in the heap of the
 *   process that ran them (after GC), in PostgreSQL, and in Redis (the thread's order counters).
 *
 * Run from the repository root: `npm run bench:scale` (needs PostgreSQL and Redis; BENCH_POSTGRES_URL,
 * BENCH_REDIS_URL). Writes bench/.tmp/scale-out.json and the "Scale-out" section of docs/benchmarks.md
 * (only with the default sizes; BENCH_THREADS, BENCH_SEQUENTIAL, BENCH_IDLE make a smaller smoke run that
 * only prints). Asserts nothing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { build } from 'esbuild';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createOrderAgent } from '../../src/adapters/bullmq/fixtures/order-domain.js';
import { createTurnQueue, type TurnJobOutcome } from '../../src/adapters/bullmq/index.js';
import { createPostgresStore } from '../../src/adapters/postgres/index.js';
import type { TurnResult } from '../../src/agent/index.js';

const pgUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const threads = Number(process.env.BENCH_THREADS ?? 200);
const turnsPerThread = 5;
const sequentialTurns = Number(process.env.BENCH_SEQUENTIAL ?? 200);
const idleThreads = Number(process.env.BENCH_IDLE ?? 1_000);
const root = resolve(import.meta.dirname, '../..');
const bundle = join(root, 'node_modules/.cache/flowstack/bench-turn-worker.mjs');
const run = randomBytes(3).toString('hex');

/** Idle and total CPU time of the whole machine so far (all cores). */
function cpuTimes(): { idle: number; total: number } {
  let idle = 0;
  let total = 0;
  for (const cpu of cpus()) {
    idle += cpu.times.idle;
    total += cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq + cpu.times.idle;
  }
  return { idle, total };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
};

async function dropSchema(schema: string) {
  const admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
}

async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bundle], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((ready, failed) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (String(chunk).includes('ready')) ready(child);
    });
    child.once('exit', (code) => failed(new Error(`a worker exited (${code}) before it was ready`)));
  });
}

async function stopWorker(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

async function measureWorkers(workerCount: number) {
  const schema = `flowstack_bench_scale_${run}_${workerCount}`;
  const prefix = `fsbench${run}w${workerCount}`;
  const store = createPostgresStore({ connectionString: pgUrl, schema });
  await store.ready();
  await store.close();
  const effectsDir = mkdtempSync(join(tmpdir(), 'flowstack-bench-scale-'));
  const workers = await Promise.all(
    Array.from({ length: workerCount }, (_, i) =>
      startWorker({
        DATABASE_URL: pgUrl,
        FLOWSTACK_PG_SCHEMA: schema,
        REDIS_URL: redisUrl,
        FLOWSTACK_QUEUE_PREFIX: prefix,
        FLOWSTACK_EFFECTS_DIR: effectsDir,
        FLOWSTACK_WORKER: `w${i + 1}`,
        FLOWSTACK_CONCURRENCY: '8',
      }),
    ),
  );
  const queue = createTurnQueue<TurnResult>({ redisUrl, prefix });
  const bull = new Queue('turns', { connection: { url: redisUrl }, prefix });
  const runMsOf = async (jobId: string) =>
    ((await bull.getJob(jobId))?.returnvalue as TurnJobOutcome<TurnResult> | undefined)?.runMs ?? Number.NaN;
  try {
    // Warm-up: connections, prepared statements, JIT.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => queue.send({ threadId: `warm${i}`, text: `order warm${i} 1` })),
    );

    const overhead: number[] = [];
    const latency: number[] = [];
    for (let i = 0; i < sequentialTurns; i++) {
      const started = performance.now();
      const { jobId } = await queue.enqueue({ threadId: `seq${i}`, text: `order s${i} 1` });
      await queue.waitFor(jobId);
      const elapsed = performance.now() - started;
      latency.push(elapsed);
      overhead.push(elapsed - (await runMsOf(jobId)));
    }

    const loadLatency: number[] = [];
    const cpuBefore = cpuTimes();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: threads }, async (_, t) => {
        const pending: Promise<void>[] = [];
        for (let n = 1; n <= turnsPerThread; n++) {
          const enqueuedAt = performance.now();
          const { jobId } = await queue.enqueue({ threadId: `load${t}`, text: `order l${t}-${n} ${n}` });
          pending.push(
            queue.waitFor(jobId).then((turn) => {
              if (turn.status !== 'completed') throw new Error(`turn ${jobId} ended ${turn.status}`);
              loadLatency.push(performance.now() - enqueuedAt);
            }),
          );
        }
        await Promise.all(pending);
      }),
    );
    const seconds = (performance.now() - started) / 1_000;
    const cpuAfter = cpuTimes();
    const machineBusy = 1 - (cpuAfter.idle - cpuBefore.idle) / Math.max(1, cpuAfter.total - cpuBefore.total);

    // Redis bytes a thread keeps once its turns are done: its order counters.
    const redis = new Redis(redisUrl);
    const keys = (await redis.keys(`${prefix}:turns:flowstack:thread:load*`)).slice(0, 200);
    const sizes = await Promise.all(keys.map((key) => redis.memory('USAGE', key)));
    redis.disconnect();
    return {
      workers: workerCount,
      turns: threads * turnsPerThread,
      seconds,
      turnsPerSecond: (threads * turnsPerThread) / seconds,
      overheadP50: percentile(overhead, 50),
      overheadP99: percentile(overhead, 99),
      sequentialLatencyP50: percentile(latency, 50),
      loadLatencyP50: percentile(loadLatency, 50),
      loadLatencyP99: percentile(loadLatency, 99),
      machineBusy,
      redisBytesPerThread:
        sizes.reduce<number>((sum, size) => sum + Number(size ?? 0), 0) / Math.max(1, sizes.length),
    };
  } finally {
    await Promise.all(workers.map((child) => stopWorker(child)));
    await bull.obliterate({ force: true }).catch(() => undefined);
    await bull.close();
    await queue.close();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await dropSchema(schema);
  }
}

async function measureIdleThreads() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const schema = `flowstack_bench_idle_${run}`;
  const store = createPostgresStore({ connectionString: pgUrl, schema });
  await store.ready();
  const admin = new pg.Pool({ connectionString: pgUrl, max: 1 });
  const schemaBytes = async () =>
    Number(
      (
        await admin.query(
          `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c
           JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
          [schema],
        )
      ).rows[0].bytes,
    );
  const agent = createOrderAgent({
    store,
    effectsDir: mkdtempSync(join(tmpdir(), 'flowstack-bench-idle-')),
    worker: 'idle',
  });
  try {
    // A refund is confirmed by the user, then waits for an approval: the thread is suspended and idle.
    const suspend = async (threadId: string, item: string) => {
      await agent.send({ threadId, text: `refund ${item}` });
      const turn = await agent.send({ threadId, text: 'yes' });
      if (turn.status !== 'suspended') throw new Error(`refund turn ended ${turn.status}`);
    };
    for (let i = 0; i < 20; i++) await suspend(`warm${i}`, `w${i}`);
    await admin.query(`VACUUM ANALYZE`).catch(() => undefined);
    const bytesBefore = await schemaBytes();
    agent.forgetModelCalls();
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < idleThreads; i += 20)
      await Promise.all(
        Array.from({ length: Math.min(20, idleThreads - i) }, (_, j) => suspend(`idle${i + j}`, `r${i + j}`)),
      );
    agent.forgetModelCalls();
    gc();
    const heapAfter = process.memoryUsage().heapUsed;
    const bytesAfter = await schemaBytes();
    return {
      threads: idleThreads,
      heapBytesPerThread: (heapAfter - heapBefore) / idleThreads,
      postgresBytesPerThread: (bytesAfter - bytesBefore) / idleThreads,
    };
  } finally {
    await agent.close();
    await admin.end();
    await dropSchema(schema);
  }
}

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
const startedAt = Date.now();
const loadBefore = loadavg();
const scaled = [await measureWorkers(1), await measureWorkers(3)];
const idle = await measureIdleThreads();
const loadAfter = loadavg();
const result = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  loadBefore,
  loadAfter,
  seconds: (Date.now() - startedAt) / 1_000,
  scaled,
  idle,
};
mkdirSync(join(root, 'bench/.tmp'), { recursive: true });
writeFileSync(join(root, 'bench/.tmp/scale-out.json'), `${JSON.stringify(result, null, 2)}\n`);

const ms = (value: number) => `${value.toFixed(1)} ms`;
const load = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
const section = [
  '<!-- scale-out:start -->',
  '## Scale-out',
  '',
  `Generated by \`npm run bench:scale\` (\`bench/scale/run-scale-out.ts\`) on ${result.date.slice(0, 10)} in ${result.seconds.toFixed(0)} s, separately from the run above (which keeps this section). Node ${result.node}, ${result.cpus}, ${result.memoryGiB} GiB; load average (1, 5, 15 min) ${load(loadBefore)} at the start, ${load(loadAfter)} at the end. PostgreSQL and Redis run on the same machine as the workers, so the workers share the two cores with them and with the client.`,
  '',
  `Each worker is a \`flowstack worker\`-style process (the order agent of the tests: a fast-path rule, a stock check and a non-idempotent order per turn, scripted model, 8 turns at a time) on one PostgreSQL store and one BullMQ queue. **Throughput**: ${threads} threads × ${turnsPerThread} turns enqueued at once (each thread's turns in order, threads at the same time), turns per second from the first enqueue to the last answer. **Overhead**: ${sequentialTurns} turns sent one at a time, each on a new thread; a turn's overhead is the client's enqueue-to-answer time minus the time the worker's agent spent on it (\`runMs\`), so it is what the queue, Redis and the per-thread order add. Latency under load includes waiting behind the thread's earlier turns and the other threads.`,
  '',
  '| workers | turns/s | machine CPU busy under load | overhead p50 | overhead p99 | latency p50, one at a time | latency p50 / p99 under load | Redis bytes per thread |',
  '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...scaled.map(
    (row) =>
      `| ${row.workers} | ${row.turnsPerSecond.toFixed(0)} | ${(row.machineBusy * 100).toFixed(0)} % | ${ms(row.overheadP50)} | ${ms(row.overheadP99)} | ${ms(row.sequentialLatencyP50)} | ${ms(row.loadLatencyP50)} / ${ms(row.loadLatencyP99)} | ${row.redisBytesPerThread.toFixed(0)} |`,
  ),
  '',
  (() => {
    const [one, three] = scaled;
    const ratio = one && three ? three.turnsPerSecond / one.turnsPerSecond : Number.NaN;
    return ratio >= 1.2
      ? `Three workers give ${ratio.toFixed(2)}× the throughput of one.`
      : `Three workers give ${ratio.toFixed(2)}× the throughput of one here: PostgreSQL, Redis, the client and the workers share ${cpus().length} cores, which were already ${((one?.machineBusy ?? 0) * 100).toFixed(0)} % busy during the one-worker run (the CPU column counts every process on the machine, other work included), so the machine, not the queue, is the limit. Workers add throughput when they get cores of their own (other machines, a bigger one); the overhead the queue adds per turn is a few milliseconds either way.`;
  })(),
  '',
  `**Memory per idle suspended thread** (${idle.threads} threads, each waiting for an approval after two turns, run in one process on PostgreSQL): ${idle.heapBytesPerThread.toFixed(0)} bytes of heap per thread left in the process that ran them (after GC, with the scripted model's own call log cleared), ${(idle.postgresBytesPerThread / 1024).toFixed(1)} KiB per thread in PostgreSQL (tables and indexes), and in Redis only the thread's order counters (the last column above). A suspended thread holds no worker, no timer and no connection: it is rows in the store until someone answers.`,
  '<!-- scale-out:end -->',
].join('\n');
console.log(section);
const defaults = !process.env.BENCH_THREADS && !process.env.BENCH_SEQUENTIAL && !process.env.BENCH_IDLE;
const docPath = join(root, 'docs/benchmarks.md');
if (defaults && existsSync(docPath)) {
  const doc = readFileSync(docPath, 'utf8');
  const start = doc.indexOf('<!-- scale-out:start -->');
  const end = doc.indexOf('<!-- scale-out:end -->');
  const next =
    start >= 0 && end > start
      ? doc.slice(0, start) + section + doc.slice(end + '<!-- scale-out:end -->'.length)
      : `${doc.trimEnd()}\n\n${section}\n`;
  writeFileSync(docPath, next);
  console.log(`\nwrote the Scale-out section of ${docPath}`);
}
