/**
 * `flowstack approve <thread>`: answers the question the thread waits for — an approval (approve,
 * `--reject "<reason>"`, or approve edited `--args`), or any other question with `--answer` — and runs
 * the rest of the turn.
 */
import { summarizeThreadEvents } from '../../observe/index.js';
import { describeSuspensions, type ServerAgent } from '../../server/index.js';
import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import type { CliExampleEntry } from '../examples.js';
import { exitCodes } from '../exit-codes.js';
import { decisionAnswer } from '../internal/decision-answer.js';
import { startLiveView } from '../internal/live-view.js';
import { openExample } from '../internal/open-example.js';
import { printTurn } from '../internal/print-turn.js';

export async function approveCommand(
  args: CliArgs,
  io: CliIo,
  options: { example: CliExampleEntry; threadId: string },
): Promise<number> {
  const feedback = readFeedback(args, io);
  if (feedback === undefined) return exitCodes.usage;
  const example = await openExample(options.example, { db: args.values.db, io });
  const agent: ServerAgent = example.agent;
  try {
    if (!(await agent.store.loadThread(options.threadId))) {
      io.err(`flowstack approve: no thread '${options.threadId}'.`);
      return exitCodes.notFound;
    }
    const thread = await agent.readThread(options.threadId);
    const waiting = describeSuspensions(
      thread,
      (await summarizeThreadEvents(agent.store, options.threadId)).suspensions,
    );
    const chosen = args.values.suspension
      ? waiting.find((s) => s.suspensionId === args.values.suspension)
      : waiting.find((s) => s.suspensionId !== undefined);
    if (!chosen?.suspensionId) {
      io.err(
        args.values.suspension
          ? `flowstack approve: thread '${options.threadId}' has no open question '${args.values.suspension}'.`
          : `flowstack approve: thread '${options.threadId}' waits for no answer.`,
      );
      return exitCodes.notFound;
    }
    if (
      ['feedback', 'outcome_unknown', 'rollback'].includes(chosen.kind ?? '') &&
      args.values.answer === undefined
    ) {
      io.err(
        `flowstack approve: this question (${chosen.kind}: ${chosen.prompt}) takes an answer: use --answer.`,
      );
      return exitCodes.usage;
    }
    if (typeof agent.resume !== 'function') {
      io.err('flowstack approve: this agent cannot answer suspensions yet (it has no resume()).');
      return exitCodes.unsupported;
    }
    const view = startLiveView(agent, io, options.threadId);
    try {
      const turn = await agent.resume({
        threadId: options.threadId,
        suspensionId: chosen.suspensionId,
        feedback: decisionAnswer(chosen.kind, feedback.value),
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

/** The answer the options give, or undefined (after saying why) when they are wrong. */
function readFeedback(args: CliArgs, io: CliIo): { value: unknown } | undefined {
  const { reject, answer } = args.values;
  if (reject !== undefined) {
    if (reject.trim() !== '') return { value: { decision: 'reject', reason: reject } };
    io.err('flowstack approve: --reject needs a reason.');
    return undefined;
  }
  if (args.values.args !== undefined) {
    try {
      const parsed: unknown = JSON.parse(args.values.args);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        return { value: { decision: 'edit', arguments: parsed } };
    } catch {
      // reported below
    }
    io.err('flowstack approve: --args must be a JSON object of the tool arguments.');
    return undefined;
  }
  if (answer !== undefined) {
    try {
      return { value: JSON.parse(answer) };
    } catch {
      return { value: answer };
    }
  }
  return { value: { decision: 'approve' } };
}
