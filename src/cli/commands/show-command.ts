/**
 * `flowstack show <thread>`: the conversation, the flow stack, the question or approval the thread
 * waits for, and with --events the event tree; with --frame <tableId> [--page <n>] one page of a
 * display frame's stored rows instead.
 */

import { ThreadNotFoundError } from '../../errors/index.js';
import { replayObservations, summarizeThreadEvents } from '../../observe/index.js';
import { defaultFramePageRows, readTablePage } from '../../respond/index.js';
import { describeFileSnapshots, describeSuspensions } from '../../server/index.js';
import type { Observation, StateStore } from '../../spec/index.js';
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
    if (args.values.frame !== undefined)
      return await showFramePage(io, {
        store,
        threadId: options.threadId,
        tableId: args.values.frame,
        page: args.values.page,
        json: args.values.json === true,
      });
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

/** One page of a frame's rows (page 1 is the frame's own first page), as JSON or one row a line. */
async function showFramePage(
  io: CliIo,
  options: { store: StateStore; threadId: string; tableId: string; page: string | undefined; json: boolean },
): Promise<number> {
  const page = Number(options.page ?? '1');
  if (!Number.isInteger(page) || page < 1) {
    io.err('flowstack show: --page must be a whole number from 1.');
    return exitCodes.usage;
  }
  const table = await readTablePage({
    store: options.store,
    threadId: options.threadId,
    tableId: options.tableId,
    offset: (page - 1) * defaultFramePageRows,
    limit: defaultFramePageRows,
  });
  if (!table) {
    io.err(`flowstack show: thread '${options.threadId}' has no stored table '${options.tableId}'.`);
    return exitCodes.notFound;
  }
  const pages = Math.max(1, Math.ceil(table.totalRows / defaultFramePageRows));
  if (page > pages) {
    io.err(`flowstack show: table '${options.tableId}' has ${pages} pages.`);
    return exitCodes.usage;
  }
  if (options.json) {
    const { tableId, totalRows, rows } = table;
    io.out(JSON.stringify({ tableId, page, pages, pageRows: defaultFramePageRows, totalRows, rows }));
    return exitCodes.ok;
  }
  const first = table.offset + 1;
  io.out(
    `Table ${options.tableId}, page ${page} of ${pages} (rows ${first}–${table.offset + table.rows.length} of ${table.totalRows})`,
  );
  for (const row of table.rows) io.out(JSON.stringify(row));
  return exitCodes.ok;
}

function printNode(io: CliIo, node: EventTreeNode, depth: number): void {
  const id = node.observation ? ` #${node.observation.id}` : '';
  io.out(`${'  '.repeat(depth)}${node.children.length > 0 ? '▾ ' : '- '}${node.label}${id}`);
  for (const child of node.children) printNode(io, child, depth + 1);
}
