#!/usr/bin/env node
/**
 * The `flowstack` executable: runs the command line on this process's arguments and streams, then
 * exits with the command's code (signal listeners and stdin would otherwise keep the process alive).
 */
import { processIo } from './cli-io.js';
import { runCli } from './run-cli.js';

runCli(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
    setImmediate(() => process.exit(code));
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
