export { type CliIo, processIo } from './cli-io.js';
export { type ExitCode, exitCodes } from './exit-codes.js';
export { runCli } from './run-cli.js';
