/**
 * `flowstack delete <thread>`: deletes a thread and everything kept of it — its messages, journal,
 * events, file snapshots and schedules; its audit rows stay with their summaries erased
 * (docs/decisions/0076). `--principal` names who asks (default `local`); another's thread is not found.
 */
import { ThreadBusyError, ThreadNotFoundError } from '../../errors/index.js';
import type { ServerAgent } from '../../server/index.js';
import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import type { CliExampleEntry } from '../examples.js';
import { exitCodes } from '../exit-codes.js';
import { openExample } from '../internal/open-example.js';

export async function deleteCommand(
  args: CliArgs,
  io: CliIo,
  options: { example: CliExampleEntry; threadId: string },
): Promise<number> {
  const { threadId } = options;
  const example = await openExample(options.example, { db: args.values.db, io });
  const agent: ServerAgent = example.agent;
  try {
    if (typeof agent.deleteThread !== 'function') {
      io.err('flowstack delete: this agent cannot delete threads (it has no deleteThread()).');
      return exitCodes.unsupported;
    }
    const deleted = await agent.deleteThread({ threadId, principal: args.values.principal ?? 'local' });
    io.out(
      args.values.json
        ? JSON.stringify(deleted)
        : `Deleted thread '${threadId}' (and ${deleted.fileSnapshots} file snapshots).`,
    );
    return exitCodes.ok;
  } catch (error) {
    if (ThreadNotFoundError.isInstance(error)) {
      io.err(`flowstack delete: no thread '${threadId}'.`);
      return exitCodes.notFound;
    }
    if (ThreadBusyError.isInstance(error)) {
      io.err(`flowstack delete: thread '${threadId}' has a turn running; try again when it is done.`);
      return exitCodes.failed;
    }
    throw error;
  } finally {
    await example.agent.close();
  }
}
