/**
 * `flowstack worker [example]`: a worker process of a scaled deployment (DESIGN.md §7). It runs the
 * example's agent on the PostgreSQL store of `DATABASE_URL` and takes turns — and scheduled flows — off
 * the BullMQ queue of `REDIS_URL`, `--concurrency` at a time (default 8), until Ctrl-C or SIGTERM, when it
 * finishes the turns it holds and stops. Tool rate limits are counted in Redis across every worker, and
 * every event of its turns is published there for the API processes' streams.
 */
import { createTurnWorker } from '../../adapters/bullmq/index.js';
import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import type { CliExampleEntry } from '../examples.js';
import { exitCodes } from '../exit-codes.js';
import { openExample } from '../internal/open-example.js';
import {
  openPostgresFromConfig,
  openSharedRedisParts,
  readScaleConfig,
  type SharedRedisParts,
} from '../internal/scale-config.js';
import { startSnapshotSweeps } from '../internal/sweep-snapshots.js';
import { warmUpAgent } from '../internal/warm-up-agent.js';

export async function workerCommand(
  args: CliArgs,
  io: CliIo,
  options: { example: CliExampleEntry; name: string },
): Promise<number> {
  const config = readScaleConfig(io.env);
  const { databaseUrl, redisUrl } = config;
  if (databaseUrl === undefined || redisUrl === undefined) {
    io.err(
      'flowstack worker: set DATABASE_URL (PostgreSQL, shared by every process) and REDIS_URL (the turn queue), e.g.\n' +
        '  DATABASE_URL=postgres://user:pass@db:5432/app REDIS_URL=redis://redis:6379 flowstack worker',
    );
    return exitCodes.usage;
  }
  const concurrency = Number(args.values.concurrency ?? 8);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    io.err('flowstack worker: --concurrency takes a whole number of turns, at least 1.');
    return exitCodes.usage;
  }
  const store = await openPostgresFromConfig({ ...config, databaseUrl });
  let shared: SharedRedisParts;
  try {
    shared = await openSharedRedisParts({ ...config, redisUrl }, store);
  } catch (error) {
    await store.close();
    throw error;
  }
  const example = await openExample(options.example, { io, store, rateLimiter: shared.rateLimiter });
  // Before the worker takes turns: its first may well be a crashed worker's.
  await warmUpAgent(example.agent, io, 'worker');
  // Every event of the turns run here reaches the API processes' streams through Redis.
  const stopRelay = shared.fanout.relay(example.agent.subscribe, { progress: true });
  const worker = createTurnWorker({
    agent: example.agent,
    redisUrl,
    prefix: config.prefix,
    concurrency,
    onError: (error) => io.err(`flowstack worker: ${(error as Error)?.message ?? String(error)}`),
  });
  const shutdown = async () => {
    stopRelay();
    await worker.close();
    await shared.close();
    await example.agent.close();
  };
  try {
    await worker.ready();
  } catch (error) {
    await shutdown();
    throw error;
  }
  io.err(
    `flowstack: model is ${example.modelDescription}; store postgres ${store.address} (schema ${store.schema})`,
  );
  io.out(
    `flowstack worker ${worker.name}: the ${options.name} example takes turns from the queue '${config.prefix}' (${concurrency} at a time). Ctrl-C stops it.`,
  );
  // Snapshots are kept on the machine whose tools took them: each worker sweeps its own.
  const stopSweeps = startSnapshotSweeps(example.agent, io, 'worker');
  await io.stopped;
  io.err('flowstack worker: finishing the turns it holds…');
  await stopSweeps();
  await shutdown();
  return exitCodes.ok;
}
