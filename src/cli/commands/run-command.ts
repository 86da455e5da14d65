/**
 * `flowstack run [example] "<message>"`: one turn, its reply on stdout (one JSON line with --json), the
 * agent's progress on stderr. Exit 0 when the turn completed, 3 when the agent waits for the user, 1
 * when it failed.
 */

import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import type { CliExampleEntry } from '../examples.js';
import { exitCodes } from '../exit-codes.js';
import { startLiveView } from '../internal/live-view.js';
import { openExample } from '../internal/open-example.js';
import { printTurn } from '../internal/print-turn.js';

export async function runCommand(
  args: CliArgs,
  io: CliIo,
  options: { example: CliExampleEntry; text: string },
): Promise<number> {
  if (options.text.trim() === '') {
    io.err('flowstack run: give the message to send, e.g. flowstack run travel "flights to Lisbon".');
    return exitCodes.usage;
  }
  const example = await openExample(options.example, { db: args.values.db, io });
  const threadId = args.values.thread ?? `run-${Date.now().toString(36)}`;
  const principal = args.values.principal ?? 'local';
  if (!args.values.json) io.err(`flowstack: model is ${example.modelDescription}; thread ${threadId}`);
  const view = startLiveView(example.agent, io, threadId);
  try {
    const turn = await example.agent.send({ threadId, text: options.text, principal });
    view.stop();
    printTurn(io, turn, { json: args.values.json === true });
    if (turn.status === 'failed') return exitCodes.failed;
    return turn.status === 'completed' ? exitCodes.ok : exitCodes.waiting;
  } finally {
    view.stop();
    await example.agent.close();
  }
}
