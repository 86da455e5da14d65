/**
 * `flowstack rollback <thread>`: restores the files of one snapshot taken before a tool call changed
 * them (`--snapshot <id>`, default the thread's latest).
 */
import { describeFileSnapshots, type ServerAgent } from '../../server/index.js';
import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import type { CliExampleEntry } from '../examples.js';
import { exitCodes } from '../exit-codes.js';
import { openExample } from '../internal/open-example.js';

export async function rollbackCommand(
  args: CliArgs,
  io: CliIo,
  options: { example: CliExampleEntry; threadId: string },
): Promise<number> {
  const example = await openExample(options.example, { db: args.values.db, io });
  const agent: ServerAgent = example.agent;
  try {
    if (!(await agent.store.loadThread(options.threadId))) {
      io.err(`flowstack rollback: no thread '${options.threadId}'.`);
      return exitCodes.notFound;
    }
    if (typeof agent.rollback !== 'function') {
      io.err('flowstack rollback: this agent cannot roll back yet (it has no rollback()).');
      return exitCodes.unsupported;
    }
    const snapshots = describeFileSnapshots(await agent.readThread(options.threadId)) ?? [];
    const latest = snapshots.at(-1) as { id?: unknown } | undefined;
    const snapshotId = args.values.snapshot ?? (typeof latest?.id === 'string' ? latest.id : undefined);
    if (snapshotId === undefined) {
      io.err(`flowstack rollback: thread '${options.threadId}' has no file snapshots.`);
      return exitCodes.notFound;
    }
    const report = await agent.rollback({
      threadId: options.threadId,
      snapshotId,
      principal: args.values.principal ?? 'local',
      ...(args.values.force ? { force: true } : {}),
    });
    io.out(
      args.values.json
        ? JSON.stringify({ threadId: options.threadId, snapshotId, report })
        : `Rolled back ${snapshotId}: ${JSON.stringify(report)}`,
    );
    return exitCodes.ok;
  } finally {
    await example.agent.close();
  }
}
