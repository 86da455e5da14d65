/**
 * `flowstack threads`: the store's threads, newest first.
 */
import { createSqliteStore } from '../../store/index.js';
import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import { exitCodes } from '../exit-codes.js';
import { defaultDbPath } from '../internal/open-example.js';
import { formatTable } from '../internal/print-turn.js';

export async function threadsCommand(args: CliArgs, io: CliIo): Promise<number> {
  const limit = readLimit(args.values.limit, 50);
  if (limit === undefined) {
    io.err('flowstack threads: --limit takes a whole number from 1 to 10000.');
    return exitCodes.usage;
  }
  const store = createSqliteStore({ path: args.values.db ?? defaultDbPath });
  try {
    const threads = await store.listThreads({
      limit,
      ...(args.values.principal !== undefined ? { principal: args.values.principal } : {}),
    });
    if (args.values.json) {
      io.out(JSON.stringify({ threads }));
      return exitCodes.ok;
    }
    if (threads.length === 0) {
      io.out('No threads.');
      return exitCodes.ok;
    }
    io.out(
      formatTable(
        threads.map((t) => ({
          thread: t.threadId,
          principal: t.principal ?? '',
          version: t.version,
          updated: new Date(t.updatedAt).toISOString(),
        })),
      ),
    );
    return exitCodes.ok;
  } finally {
    await store.close();
  }
}

export function readLimit(value: string | undefined, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  const limit = Number(value);
  return Number.isInteger(limit) && limit >= 1 && limit <= 10_000 ? limit : undefined;
}
