/**
 * The `flowstack` command line: parses the arguments, runs one command, returns its exit code.
 */
import { FlowstackError } from '../errors/index.js';
import type { CliIo } from './cli-io.js';
import { type CliArgs, parseCliArgs, usage } from './cli-options.js';
import { approveCommand } from './commands/approve-command.js';
import { auditCommand } from './commands/audit-command.js';
import { chatCommand } from './commands/chat-command.js';
import { deleteCommand } from './commands/delete-command.js';
import { demoCommand } from './commands/demo-command.js';
import { mcpCommand } from './commands/mcp-command.js';
import { rollbackCommand } from './commands/rollback-command.js';
import { runCommand } from './commands/run-command.js';
import { serveCommand } from './commands/serve-command.js';
import { showCommand } from './commands/show-command.js';
import { threadsCommand } from './commands/threads-command.js';
import { workerCommand } from './commands/worker-command.js';
import type { CliExampleEntry } from './examples.js';
import { exitCodes } from './exit-codes.js';
import { findExample } from './internal/open-example.js';

const exampleCommands = new Set(['serve', 'chat', 'run', 'demo', 'worker', 'mcp']);
const threadCommands = new Set(['show', 'approve', 'rollback', 'delete']);

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let args: CliArgs;
  try {
    args = parseCliArgs(argv);
  } catch (error) {
    io.err(`flowstack: ${(error as Error).message}\n${usage}`);
    return exitCodes.usage;
  }
  const [command, ...rest] = args.positionals;
  if (args.values.help) {
    io.out(usage);
    return exitCodes.ok;
  }
  if (!command) {
    io.err(usage);
    return exitCodes.usage;
  }
  try {
    return await dispatch(command, rest, args, io);
  } catch (error) {
    io.err(
      FlowstackError.isInstance(error)
        ? `flowstack: ${error.name}: ${error.message}`
        : `flowstack: ${String((error as Error)?.stack ?? error)}`,
    );
    return exitCodes.failed;
  }
}

async function dispatch(command: string, rest: string[], args: CliArgs, io: CliIo): Promise<number> {
  if (exampleCommands.has(command)) {
    // The example may be named first: `run travel "…"`; a lone argument of `run` is the message.
    const named =
      rest[0] !== undefined && findExample(rest[0]) !== undefined && (command !== 'run' || rest.length > 1);
    const name = named ? (rest[0] as string) : (args.values.example ?? 'travel');
    const example = findExample(name);
    if (!example) return unknownExample(io, name);
    const more = named ? rest.slice(1) : rest;
    if (command === 'serve') return serveCommand(args, io, { example, name });
    if (command === 'worker') return workerCommand(args, io, { example, name });
    if (command === 'chat') return chatCommand(args, io, { example });
    if (command === 'mcp') return mcpCommand(args, io, { example, name });
    if (command === 'demo') return demoCommand(args, io, { example });
    return runCommand(args, io, { example, text: more.join(' ') });
  }
  if (threadCommands.has(command)) {
    const threadId = rest[0] ?? args.values.thread;
    if (!threadId) {
      io.err(
        `flowstack ${command}: name the thread, e.g. flowstack ${command} <thread id> (see flowstack threads).`,
      );
      return exitCodes.usage;
    }
    const example = exampleOf(args, io);
    if (typeof example === 'number') return example;
    if (command === 'show') return showCommand(args, io, { example, threadId });
    if (command === 'approve') return approveCommand(args, io, { example, threadId });
    if (command === 'delete') return deleteCommand(args, io, { example, threadId });
    return rollbackCommand(args, io, { example, threadId });
  }
  if (command === 'threads') return threadsCommand(args, io);
  if (command === 'audit') return auditCommand(args, io);
  io.err(`flowstack: unknown command '${command}'.\n${usage}`);
  return exitCodes.usage;
}

function exampleOf(args: CliArgs, io: CliIo): CliExampleEntry | number {
  const name = args.values.example ?? 'travel';
  return findExample(name) ?? unknownExample(io, name);
}

function unknownExample(io: CliIo, name: string): number {
  io.err(`flowstack: unknown example '${name}'.\n${usage}`);
  return exitCodes.notFound;
}
