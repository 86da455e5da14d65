/**
 * Where the command line reads and writes: the process by default, buffers in tests.
 */
export interface CliIo {
  /** Results (text, or JSON with --json). */
  out(text: string): void;
  /** Messages, progress and errors; never mixed into results. */
  err(text: string): void;
  /** Raw text to stderr (spinner frames). */
  errWrite(text: string): void;
  /** Whether stderr is a terminal (spinners and live views are drawn only then). */
  interactive: boolean;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Resolves when the user asks the command to stop (Ctrl-C, SIGTERM). */
  stopped: Promise<void>;
}

export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    errWrite: (text) => process.stderr.write(text),
    interactive: process.stderr.isTTY === true,
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stopped: new Promise((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
  };
}
