/**
 * `flowstack approve <thread>`: answers the approval the thread waits for — approve, reject with a
 * reason (--reject), or approve edited arguments (--args) — and runs the rest of the turn.
 */
import { summarizeThreadEvents } from '../../observe/index.js';
import type { ServerAgent } from '../../server/index.js';
import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import type { CliExampleEntry } from '../examples.js';
import { exitCodes } from '../exit-codes.js';
import { startLiveView } from '../internal/live-view.js';
import { openExample } from '../internal/open-example.js';
import { printTurn } from '../internal/print-turn.js';

export async function approveCommand(
  args: CliArgs,
  io: CliIo,
  options: { example: CliExampleEntry; threadId: string },
): Promise<number> {
  let feedback: unknown = { decision: 'approve' };
  if (args.values.reject !== undefined) {
    if (args.values.reject.trim() === '') {
      io.err('flowstack approve: --reject needs a reason.');
      return exitCodes.usage;
    }
    feedback = { decision: 'reject', reason: args.values.reject };
  } else if (args.values.args !== undefined) {
    try {
      const parsed: unknown = JSON.parse(args.values.args);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      feedback = { decision: 'edit', arguments: parsed };
    } catch {
      io.err('flowstack approve: --args must be a JSON object of the tool arguments.');
      return exitCodes.usage;
    }
  }
  const example = openExample(options.example, { db: args.values.db, io });
  const agent: ServerAgent = example.agent;
  try {
    if (!(await agent.store.loadThread(options.threadId))) {
      io.err(`flowstack approve: no thread '${options.threadId}'.`);
      return exitCodes.notFound;
    }
    const { suspension } = await summarizeThreadEvents(agent.store, options.threadId);
    const suspensionId = args.values.suspension ?? suspension?.suspensionId;
    if (suspensionId === undefined) {
      io.err(`flowstack approve: thread '${options.threadId}' waits for no approval.`);
      return exitCodes.notFound;
    }
    if (typeof agent.resume !== 'function') {
      io.err('flowstack approve: this agent cannot answer suspensions yet (it has no resume()).');
      return exitCodes.unsupported;
    }
    const view = startLiveView(agent, io, options.threadId);
    try {
      const turn = await agent.resume({
        threadId: options.threadId,
        suspensionId,
        feedback,
        principal: args.values.principal ?? 'local',
      });
      view.stop();
      printTurn(io, turn, { json: args.values.json === true });
      return turn.status === 'failed' ? exitCodes.failed : exitCodes.ok;
    } finally {
      view.stop();
    }
  } finally {
    await example.agent.close();
  }
}
