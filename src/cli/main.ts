#!/usr/bin/env node
/**
 * The `flowstack` command line: `demo`, `run <example> "<text>"`, `chat <example>`.
 */
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { createDataAnalysisExample } from '../../examples/data-analysis/index.js';
import { createTravelExample } from '../../examples/travel/index.js';
import type { TurnResult } from '../agent/index.js';
import { FlowstackError } from '../errors/index.js';
import { createSqliteStore } from '../store/index.js';

const usage = `Usage:
  flowstack demo                          run the travel example's demo conversation
  flowstack run <example> "<message>"     send one message (options: --thread <id>, --db <path>, --json)
  flowstack chat <example>                talk to an example in the terminal (--thread <id>, --db <path>)
Examples: travel, data-analysis. Set FLOWSTACK_MODEL (e.g. openai:gpt-4o-mini) to use a real model.`;

const examples = { travel: createTravelExample, 'data-analysis': createDataAnalysisExample };

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      thread: { type: 'string' },
      db: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  const [command, exampleName = 'travel', ...rest] = positionals;
  if (values.help || !command) {
    console.log(usage);
    return command || values.help ? 0 : 2;
  }
  const create = examples[(command === 'demo' ? 'travel' : exampleName) as keyof typeof examples];
  if (!create) {
    console.error(`Unknown example '${exampleName}'.\n${usage}`);
    return 2;
  }
  const store = createSqliteStore(values.db ? { path: values.db } : {});
  const example = create({ store });
  const threadId = values.thread ?? `${command}-${Date.now().toString(36)}`;
  if (!values.json)
    console.error(
      `flowstack: model is ${example.modelDescription}; thread ${threadId}; store ${values.db ?? '.flowstack/flowstack.db'}`,
    );
  try {
    if (command === 'demo') {
      for (const text of example.demoConversation)
        printTurn(text, await example.agent.send({ threadId, text }), false);
      const thread = await example.agent.readThread(threadId);
      console.log(
        `\nSaved: thread ${threadId}, version ${thread.version}, ${thread.messages.length} messages, stack depth ${thread.snapshot.stack.length}.`,
      );
      return 0;
    }
    if (command === 'run') {
      const text = rest.join(' ');
      const turn = await example.agent.send({ threadId, text });
      printTurn(text, turn, values.json === true);
      return turn.status === 'failed' ? 1 : 0;
    }
    if (command === 'chat') return await chat(example.agent, threadId);
    console.error(`Unknown command '${command}'.\n${usage}`);
    return 2;
  } finally {
    await example.agent.close();
  }
}

async function chat(
  agent: ReturnType<typeof createTravelExample>['agent'],
  threadId: string,
): Promise<number> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  console.log('Type a message; an empty line or Ctrl-D ends the chat.');
  try {
    for (;;) {
      const text = await rl.question('you> ').catch(() => '');
      if (text.trim() === '') return 0;
      try {
        printTurn(undefined, await agent.send({ threadId, text }), false);
      } catch (error) {
        if (!FlowstackError.isInstance(error)) throw error;
        console.log(`error: ${error.message}`);
      }
    }
  } finally {
    rl.close();
  }
}

function printTurn(text: string | undefined, turn: TurnResult, json: boolean): void {
  if (json) {
    console.log(
      JSON.stringify({
        threadId: turn.threadId,
        status: turn.status,
        reply: turn.reply,
        frames: turn.frames,
        stack: turn.stack,
      }),
    );
    return;
  }
  if (text !== undefined) console.log(`\nyou> ${text}`);
  console.log(`agent> ${turn.reply.replaceAll('\n', '\n       ')}`);
  for (const frame of turn.frames) {
    if ((frame.displayType === 'table' || frame.displayType === 'chart') && Array.isArray(frame.data))
      console.table(frame.data);
  }
  const stack = turn.stack.map((f) => `${f.name}(${f.status})`).join(' > ') || 'empty';
  console.log(`       [${turn.status}; stack: ${stack}]`);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(FlowstackError.isInstance(error) ? `${error.name}: ${error.message}` : error);
    process.exitCode = 1;
  },
);
