/**
 * `flowstack chat [example]`: an interactive session on one thread, with a spinner while the agent
 * works and the plan's progress when there is a plan. An empty line or end of input ends it.
 */
import { createInterface } from 'node:readline/promises';
import type { TurnResult } from '../../agent/index.js';
import { FlowstackError } from '../../errors/index.js';
import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import type { CliExampleEntry } from '../examples.js';
import { exitCodes } from '../exit-codes.js';
import { startLiveView } from '../internal/live-view.js';
import { openExample } from '../internal/open-example.js';
import { printTurn } from '../internal/print-turn.js';

export async function chatCommand(
  args: CliArgs,
  io: CliIo,
  options: { example: CliExampleEntry },
): Promise<number> {
  const example = await openExample(options.example, { db: args.values.db, io });
  const threadId = args.values.thread ?? `chat-${Date.now().toString(36)}`;
  const principal = args.values.principal ?? 'local';
  io.err(`flowstack: model is ${example.modelDescription}; thread ${threadId}`);
  io.err('Type a message; an empty line or Ctrl-D ends the chat.');
  const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: io.interactive });
  const lines = rl[Symbol.asyncIterator]();
  try {
    for (;;) {
      if (io.interactive) rl.setPrompt('you> ');
      if (io.interactive) rl.prompt();
      const next = await lines.next();
      const text = next.done ? '' : String(next.value);
      if (text.trim() === '') return exitCodes.ok;
      const view = startLiveView(example.agent, io, threadId);
      let turn: TurnResult | undefined;
      try {
        turn = await example.agent.send({ threadId, text, principal });
      } catch (error) {
        if (!FlowstackError.isInstance(error)) throw error;
        view.stop();
        io.err(`error: ${error.message}`);
      } finally {
        // The spinner's line is cleared before the reply, so nothing of it is left in front of "agent>".
        view.stop();
      }
      if (turn) printTurn(io, turn, { json: args.values.json === true });
    }
  } finally {
    rl.close();
    await example.agent.close();
  }
}
