/**
 * `flowstack serve [example]`: the example's agent behind the HTTP API, the web page and the A2A
 * endpoint, on the SQLite store. Tokens come from `FLOWSTACK_TOKENS` or `--tokens-file`; without
 * either, one token for the principal `local` is made once and kept beside the database, so the
 * printed address stays the same across restarts.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigurationError } from '../../errors/index.js';
import { createScheduler } from '../../schedule/index.js';
import { createServer, parseTokenList, type TokenTable } from '../../server/index.js';
import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import type { CliExampleEntry } from '../examples.js';
import { exitCodes } from '../exit-codes.js';
import { defaultDbPath, openExample } from '../internal/open-example.js';
import {
  openPostgresFromConfig,
  openQueueFromConfig,
  openSharedRedisParts,
  readScaleConfig,
  type SharedRedisParts,
} from '../internal/scale-config.js';
import { startSnapshotSweeps } from '../internal/sweep-snapshots.js';
import { warmUpAgent } from '../internal/warm-up-agent.js';

export async function serveCommand(
  args: CliArgs,
  io: CliIo,
  options: { example: CliExampleEntry; name: string },
): Promise<number> {
  const port = Number(args.values.port ?? io.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    io.err('flowstack serve: --port takes a port number (0 picks a free one).');
    return exitCodes.usage;
  }
  const db = args.values.db ?? defaultDbPath;
  let tokens: TokenTable;
  let made: string | undefined;
  try {
    ({ tokens, made } = resolveTokens(args, io, db));
  } catch (error) {
    if (!ConfigurationError.isInstance(error)) throw error;
    io.err(`flowstack serve: ${error.message}`);
    return exitCodes.usage;
  }
  const config = readScaleConfig(io.env);
  if (config.redisUrl !== undefined && config.databaseUrl === undefined) {
    io.err(
      'flowstack serve: REDIS_URL sends turns to workers, which keep threads in PostgreSQL: set DATABASE_URL too.',
    );
    return exitCodes.usage;
  }
  const store = config.databaseUrl
    ? await openPostgresFromConfig({ ...config, databaseUrl: config.databaseUrl })
    : undefined;
  let shared: SharedRedisParts | undefined;
  try {
    shared =
      config.redisUrl && store
        ? await openSharedRedisParts({ ...config, redisUrl: config.redisUrl }, store)
        : undefined;
  } catch (error) {
    await store?.close();
    throw error;
  }
  const example = await openExample(options.example, {
    db,
    io,
    ...(store ? { store } : {}),
    ...(shared ? { rateLimiter: shared.rateLimiter } : {}),
  });
  await warmUpAgent(example.agent, io, 'serve');
  let queue: Awaited<ReturnType<typeof openQueueFromConfig>> | undefined;
  try {
    queue = config.redisUrl ? await openQueueFromConfig({ ...config, redisUrl: config.redisUrl }) : undefined;
  } catch (error) {
    await shared?.close();
    await example.agent.close();
    throw error;
  }
  const server = createServer({
    agent: example.agent,
    ...(queue ? { turns: queue } : {}),
    // Streams here see the events of turns the workers run, through Redis.
    ...(shared ? { fanout: shared.fanout } : {}),
    auth: { tokens },
    a2a: {
      name: `flowstack ${options.name}`,
      description: options.example.description,
      skills: options.example.skills,
    },
    // Turns run by `flowstack chat` or `run` on the same database reach open streams within a second.
    pollIntervalMs: 1_000,
  });
  let url: string;
  try {
    ({ url } = await server.listen({ port, hostname: args.values.host ?? '127.0.0.1' }));
  } catch (error) {
    await queue?.close();
    await shared?.close();
    await example.agent.close();
    const code = (error as { code?: unknown }).code;
    io.err(
      `flowstack serve: cannot listen on port ${port}${code === 'EADDRINUSE' ? ' (it is in use; try --port)' : ''}: ${String(error)}`,
    );
    return exitCodes.failed;
  }
  io.err(
    `flowstack: model is ${example.modelDescription}; store ${store ? `postgres ${store.address} (schema ${store.schema})` : db}`,
  );
  if (queue)
    io.err(`flowstack: turns go to the queue '${config.prefix}'; start workers with flowstack worker`);
  io.out(`flowstack serve: the ${options.name} example at ${url}`);
  if (made) io.out(`  web page  ${url}/#token=${made}`);
  else io.out(`  web page  ${url}/ (sign in with one of your FLOWSTACK_TOKENS)`);
  io.out(
    `  HTTP API  ${url}/v1  (OpenAPI: ${url}/v1/openapi.json)${made ? `; Authorization: Bearer ${made}` : ''}`,
  );
  io.out(`  A2A       ${url}/.well-known/agent-card.json`);
  // Without a queue, this process fires the schedules kept in its store (ADR 0024); with one, workers do.
  const scheduler =
    !queue && example.agent.store.listSchedules
      ? createScheduler({ agent: example.agent, store: example.agent.store })
      : undefined;
  scheduler?.start();
  const stopSweeps = startSnapshotSweeps(example.agent, io, 'serve');
  io.out('Press Ctrl-C to stop.');
  await io.stopped;
  io.err('flowstack serve: stopping…');
  await stopSweeps();
  await scheduler?.close();
  await server.close();
  await queue?.close();
  await shared?.close();
  await example.agent.close();
  return exitCodes.ok;
}

function resolveTokens(args: CliArgs, io: CliIo, db: string): { tokens: TokenTable; made?: string } {
  const file = args.values['tokens-file'];
  if (file !== undefined) return { tokens: parseTokenList(readFileSync(file, 'utf8'), file) };
  const fromEnv = io.env.FLOWSTACK_TOKENS;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return { tokens: parseTokenList(fromEnv) };
  const path = join(dirname(db), 'serve-token');
  let token = existsSync(path) ? readFileSync(path, 'utf8').trim() : '';
  if (token.length < 16) {
    token = randomBytes(24).toString('base64url');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${token}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  return { tokens: new Map([[token, 'local']]), made: token };
}
