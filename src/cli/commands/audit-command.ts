/**
 * `flowstack audit`: the audit log of tool calls, newest first.
 */
import { createSqliteStore } from '../../store/index.js';
import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import { exitCodes } from '../exit-codes.js';
import { defaultDbPath } from '../internal/open-example.js';
import { formatTable } from '../internal/print-turn.js';
import { readLimit } from './threads-command.js';

export async function auditCommand(args: CliArgs, io: CliIo): Promise<number> {
  const limit = readLimit(args.values.limit, 50);
  if (limit === undefined) {
    io.err('flowstack audit: --limit takes a whole number from 1 to 10000.');
    return exitCodes.usage;
  }
  const store = createSqliteStore({ path: args.values.db ?? defaultDbPath });
  try {
    const records = await store.readAudit({
      limit,
      ...(args.values.thread !== undefined ? { threadId: args.values.thread } : {}),
    });
    if (args.values.json) io.out(JSON.stringify({ records }));
    else if (records.length === 0) io.out('No audit records.');
    else
      io.out(
        formatTable(
          records.map((r) => ({
            id: r.id,
            time: new Date(r.createdAt).toISOString(),
            thread: r.threadId,
            tool: r.toolName,
            level: r.capability,
            status: r.status,
            ms: r.durationMs ?? '',
            input: r.inputSummary.slice(0, 60),
          })),
        ),
      );
    return exitCodes.ok;
  } finally {
    await store.close();
  }
}
