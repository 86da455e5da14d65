/**
 * The command line's options and usage text.
 */
import { parseArgs } from 'node:util';

export const usage = `Usage: flowstack <command> [options]

  serve [example]               the agent server, web page and A2A endpoint (default: travel)
                                  --port <n> (default 3000, or $PORT)  --host <addr> (default 127.0.0.1)
                                  bearer tokens from $FLOWSTACK_TOKENS ("alice=<token>,bob=<token>") or
                                  --tokens-file <path>; without either, a token for "local" is made and kept
                                  with DATABASE_URL threads live in PostgreSQL; with REDIS_URL turns go
                                  to the queue and \`flowstack worker\` processes run them
  worker [example]              take turns and scheduled flows off the queue (needs DATABASE_URL and
                                  REDIS_URL; --concurrency <n>, default 8)
  chat [example]                talk to an example in the terminal (--thread <id> continues one)
  run [example] "<message>"     send one message and print the reply (--thread <id>, --json)
  threads                       list threads, newest first (--principal <p>, --limit <n>, --json)
  show <thread>                 a thread: messages, flow stack, question or approval waiting (--events, --json);
                                  --frame <tableId> [--page <n>] prints a page of a display frame's rows
                                  (page 1 is the frame's own)
  approve <thread>              answer the question a thread waits for: approve, --reject "<reason>",
                                  --args '<json>' (edited arguments), or --answer '<json or text>' for other
                                  questions (an unknown outcome: happened, not-happened or skip; a failed
                                  file change: rollback, keep or continue, or '{"decision":"rollback",
                                  "force":true}'); --suspension <id> picks one when several wait
  rollback <thread>             restore the files a tool call changed (--snapshot <id>; default the latest;
                                  --force overwrites later changes to those files)
  delete <thread>               delete a thread: its messages, journal, events, file snapshots and
                                  schedules (its audit rows stay, their summaries erased; --principal)
  audit                         the audit log of tool calls (--thread <id>, --limit <n>, --json)
  demo [example]                play the example's demo conversation
  mcp [example]                 serve the example as an MCP server on stdio: tools send_message, answer and
                                  approve (--principal <p> owns its threads)

Common options: --db <path> (default .flowstack/flowstack.db)  --example <name> (default travel)
                --principal <name> (default local)  --json  --help
Examples: travel, data-analysis, operations. Set FLOWSTACK_MODEL (e.g. openai:gpt-4o-mini) to use a real model.
Exit codes: 0 done, 1 failed, 2 usage, 3 waiting for the user (run), 4 not found, 5 not supported.`;

export function parseCliArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      thread: { type: 'string' },
      db: { type: 'string' },
      example: { type: 'string' },
      principal: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      port: { type: 'string' },
      host: { type: 'string' },
      'tokens-file': { type: 'string' },
      suspension: { type: 'string' },
      reject: { type: 'string' },
      args: { type: 'string' },
      snapshot: { type: 'string' },
      force: { type: 'boolean' },
      answer: { type: 'string' },
      limit: { type: 'string' },
      events: { type: 'boolean' },
      frame: { type: 'string' },
      page: { type: 'string' },
      concurrency: { type: 'string' },
    },
  });
}

export type CliArgs = ReturnType<typeof parseCliArgs>;
