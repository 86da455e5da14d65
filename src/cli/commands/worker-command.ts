/**
 * `flowstack worker [example]`: a worker process of a scaled deployment (DESIGN.md §7). It runs the
 * example's agent on the PostgreSQL store of `DATABASE_URL` and takes turns — and scheduled flows — off
 * the BullMQ queue of `REDIS_URL`, `--concurrency` at a time (default 8), until Ctrl-C or SIGTERM, when it
 * finishes the turns it holds and stops.
 */
import { createTurnWorker } from '../../adapters/bullmq/index.js';
import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import type { CliExampleEntry } from '../examples.js';
import { exitCodes } from '../exit-codes.js';
import { openExample } from '../internal/open-example.js';
import { openPostgresFromConfig, readScaleConfig } from '../internal/scale-config.js';

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
  const example = await openExample(options.example, { io, store });
  const worker = createTurnWorker({
    agent: example.agent,
    redisUrl,
    prefix: config.prefix,
    concurrency,
    onError: (error) => io.err(`flowstack worker: ${(error as Error)?.message ?? String(error)}`),
  });
  try {
    await worker.ready();
  } catch (error) {
    await example.agent.close();
    throw error;
  }
  io.err(
    `flowstack: model is ${example.modelDescription}; store postgres ${store.address} (schema ${store.schema})`,
  );
  io.out(
    `flowstack worker ${worker.name}: the ${options.name} example takes turns from the queue '${config.prefix}' (${concurrency} at a time). Ctrl-C stops it.`,
  );
  await io.stopped;
  io.err('flowstack worker: finishing the turns it holds…');
  await worker.close();
  await example.agent.close();
  return exitCodes.ok;
}
