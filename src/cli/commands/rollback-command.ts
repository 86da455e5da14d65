/**
 * `flowstack rollback <thread>`: restores the files the thread's failed or aborted work changed.
 */
import type { ServerAgent } from '../../server/index.js';
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
  const example = openExample(options.example, { db: args.values.db, io });
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
    const result = await agent.rollback({
      threadId: options.threadId,
      principal: args.values.principal ?? 'local',
      ...(args.values.checkpoint !== undefined ? { checkpointId: args.values.checkpoint } : {}),
    });
    io.out(
      args.values.json
        ? JSON.stringify({ threadId: options.threadId, result })
        : `Rolled back: ${JSON.stringify(result)}`,
    );
    return exitCodes.ok;
  } finally {
    await example.agent.close();
  }
}
