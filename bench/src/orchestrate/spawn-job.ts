/**
 * Runs one job in a fresh `node` process and returns its report. The child's own output (peers log
 * warnings) is kept only for the error message when the job fails.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type Job, type Report, resultMarker } from '../jobs.js';

const childScript = fileURLToPath(new URL('../child.js', import.meta.url));

export interface SpawnOptions {
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeFlags?: string[];
  timeoutMs: number;
  /** A job that is meant to die (the crash job) resolves with `undefined` instead of failing. */
  expectKill?: boolean;
}

export function spawnJob(job: Job, options: SpawnOptions): Promise<Report | undefined> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', ...(options.nodeFlags ?? []), childScript, JSON.stringify(job)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    raisePriority(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8_000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith(resultMarker));
      if (line) return resolve(JSON.parse(line.slice(resultMarker.length)) as Report);
      if (options.expectKill && signal === 'SIGKILL') return resolve(undefined);
      const why = signal ? `killed by ${signal}` : `exit code ${code}`;
      const tail = stderr
        .split('\n')
        .filter((l) => !l.includes('MaxListenersExceededWarning'))
        .slice(-12)
        .join('\n');
      reject(new Error(`${describeJob(job)} failed (${why}):\n${tail}`));
    });
  });
}

export function describeJob(job: Job): string {
  const detail =
    job.scenario === 'steps'
      ? `K=${job.k}`
      : job.scenario === 'parallel'
        ? job.via
        : job.scenario === 'sessions'
          ? `${job.sessions} sessions`
          : '';
  return `${job.scenario} ${job.framework} ${job.persistence} ${detail}`.trim();
}

/**
 * Children run at a raised scheduling priority where the bench may set one (as root), so that other work
 * on the machine disturbs the timings less. Every framework's child gets the same priority.
 */
let priorityNote: string | undefined;

export function raisePriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, -10);
    priorityNote ??= 'Child processes ran at nice -10.';
  } catch {
    priorityNote ??= 'Child processes ran at normal priority (raising it was not allowed).';
  }
}

export function describePriority(): string {
  return priorityNote ?? 'No child process ran.';
}
