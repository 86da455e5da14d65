/**
 * `flowstack show <thread>`: the conversation, the flow stack, the question or approval the thread
 * waits for, and with --events the event tree.
 */

import { ThreadNotFoundError } from '../../errors/index.js';
import { replayObservations, summarizeThreadEvents } from '../../observe/index.js';
import { describeFileSnapshots, describeSuspensions } from '../../server/index.js';
import type { Observation } from '../../spec/index.js';
import { buildEventTree, type EventTreeNode } from '../../ui/index.js';
import type { CliIo } from '../cli-io.js';
import type { CliArgs } from '../cli-options.js';
import type { CliExampleEntry } from '../examples.js';
import { exitCodes } from '../exit-codes.js';
import { openExample } from '../internal/open-example.js';

export async function showCommand(
  args: CliArgs,
  io: CliIo,
  options: { example: CliExampleEntry; threadId: string },
): Promise<number> {
  const example = await openExample(options.example, { db: args.values.db, io });
  try {
    const thread = await example.agent.readThread(options.threadId).catch((error: unknown) => {
      if (ThreadNotFoundError.isInstance(error)) return undefined;
      throw error;
    });
    if (!thread) {
      io.err(`flowstack show: no thread '${options.threadId}'.`);
      return exitCodes.notFound;
    }
    const store = example.agent.store;
    const events = await summarizeThreadEvents(store, options.threadId);
    const { lastEventId } = events;
    const suspensions = describeSuspensions(thread, events.suspensions);
    const fileSnapshots = describeFileSnapshots(thread);
    const stored = await store.loadThread(options.threadId);
    const observations: Observation[] = [];
    if (args.values.events)
      for await (const o of replayObservations(store, options.threadId)) observations.push(o);
    if (args.values.json) {
      io.out(
        JSON.stringify({
          threadId: thread.threadId,
          principal: stored?.principal,
          version: thread.version,
          stack: thread.snapshot.stack,
          pending: thread.snapshot.pending,
          suspensions,
          ...(fileSnapshots ? { fileSnapshots } : {}),
          messages: thread.messages,
          lastEventId,
          ...(args.values.events ? { observations } : {}),
        }),
      );
      return exitCodes.ok;
    }
    io.out(
      `Thread ${thread.threadId} (principal ${stored?.principal ?? 'none'}, version ${thread.version}, ${lastEventId ? `last event ${lastEventId}` : 'no events'})`,
    );
    for (const m of thread.messages)
      io.out(`${m.role === 'user' ? 'you  ' : 'agent'}> ${m.text.replaceAll('\n', '\n       ')}`);
    const stack = thread.snapshot.stack.map((f) => `${f.name}(${f.status})`).join(' > ') || 'empty';
    io.out(`Flow stack: ${stack}`);
    if (thread.snapshot.pending) io.out(`Waiting for an answer: ${thread.snapshot.pending.question}`);
    for (const s of suspensions)
      io.out(
        `Waiting for ${s.kind ?? 'approval'} of ${s.toolName}${s.suspensionId ? ` (suspension ${s.suspensionId})` : ''}: ${s.prompt}\n  flowstack approve ${thread.threadId}${s.suspensionId ? ` --suspension ${s.suspensionId}` : ''}`,
      );
    for (const f of fileSnapshots ?? []) io.out(`File snapshot: ${JSON.stringify(f)}`);
    if (args.values.events) {
      io.out('Events:');
      for (const node of buildEventTree(observations)) printNode(io, node, 1);
    }
    return exitCodes.ok;
  } finally {
    await example.agent.close();
  }
}

function printNode(io: CliIo, node: EventTreeNode, depth: number): void {
  const id = node.observation ? ` #${node.observation.id}` : '';
  io.out(`${'  '.repeat(depth)}${node.children.length > 0 ? '▾ ' : '- '}${node.label}${id}`);
  for (const child of node.children) printNode(io, child, depth + 1);
}
