/**
 * `flowstack demo [example]`: plays the example's demo conversation on a new thread.
 */

import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import type { CliExampleEntry } from '../examples.js';
import { exitCodes } from '../exit-codes.js';
import { openExample } from '../internal/open-example.js';
import { printTurn } from '../internal/print-turn.js';

export async function demoCommand(
  args: CliArgs,
  io: CliIo,
  options: { example: CliExampleEntry },
): Promise<number> {
  const example = await openExample(options.example, { db: args.values.db, io });
  const threadId = args.values.thread ?? `demo-${Date.now().toString(36)}`;
  const principal = args.values.principal ?? 'local';
  io.err(`flowstack: model is ${example.modelDescription}; thread ${threadId}`);
  try {
    let failed = false;
    for (const text of example.demoConversation) {
      const turn = await example.agent.send({ threadId, text, principal });
      failed ||= turn.status === 'failed';
      printTurn(io, turn, { json: args.values.json === true, echo: text });
    }
    const thread = await example.agent.readThread(threadId);
    if (!args.values.json)
      io.out(
        `\nSaved: thread ${threadId}, version ${thread.version}, ${thread.messages.length} messages, stack depth ${thread.snapshot.stack.length}.`,
      );
    return failed ? exitCodes.failed : exitCodes.ok;
  } finally {
    await example.agent.close();
  }
}
