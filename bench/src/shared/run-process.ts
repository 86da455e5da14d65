/**
 * Runs a short-lived helper process (a cold import, an `npm` command, a SQLite driver run) and collects its
 * output. Timed children get the raised priority every job of the bench gets (`spawn-job.ts`).
 */
import { spawn } from 'node:child_process';
import { raisePriority } from '../orchestrate/spawn-job.js';

export interface ProcessOutcome {
  stdout: string;
  stderr: string;
}

export interface RunProcessOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Raise the child's priority as the timed jobs' (for children whose timing is read). */
  timed?: boolean;
}

/** Resolves with the output when the process exits with 0; rejects with the end of its stderr otherwise. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: RunProcessOptions,
): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (options.timed) raisePriority(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8_000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ stdout, stderr });
      const why = signal ? `killed by ${signal}` : `exit code ${code}`;
      const tail = stderr.trim().split('\n').slice(-6).join('\n');
      reject(new Error(`${command} ${args.slice(0, 3).join(' ')} failed (${why}): ${tail}`));
    });
  });
}

/** The last line of `stdout` that parses as JSON (helpers print one; frameworks may log before it). */
export function lastJsonLine<T>(stdout: string): T {
  const lines = stdout.trim().split('\n').reverse();
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    try {
      return JSON.parse(line) as T;
    } catch {
      // Not the helper's line: a framework's log that happens to start with a brace.
    }
  }
  throw new Error(`no JSON line in the output: ${stdout.slice(-300)}`);
}
