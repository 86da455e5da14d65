/**
 * Runs one micro-benchmark job in a fresh `node --expose-gc` process (at nice -10 where allowed, as the
 * main scenarios' children) and returns its report: a pipeline job, or the first-token measure.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { FirstTokenJob, FirstTokenReport, PipelineJob, PipelineReport } from './micro-jobs.js';

export const microResultMarker = '@@MICRO-RESULT ';

const pipelineChild = fileURLToPath(new URL('./pipeline-child.js', import.meta.url));
const firstTokenChild = fileURLToPath(new URL('./first-token-child.js', import.meta.url));

export function spawnPipelineJob(job: PipelineJob, timeoutMs = 120_000): Promise<PipelineReport> {
  return spawnMicroChild(pipelineChild, job, `pipeline ${job.tool} × ${job.calls}`, timeoutMs);
}

export function spawnFirstTokenJob(job: FirstTokenJob, timeoutMs = 120_000): Promise<FirstTokenReport> {
  return spawnMicroChild(firstTokenChild, job, 'first token', timeoutMs);
}

function spawnMicroChild<Report>(
  script: string,
  job: unknown,
  label: string,
  timeoutMs: number,
): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', script, JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, -10);
      } catch {
        // Not allowed (not root): the child runs at normal priority.
      }
    }
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4_000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith(microResultMarker));
      if (line) return resolve(JSON.parse(line.slice(microResultMarker.length)) as Report);
      reject(new Error(`${label} failed (${signal ?? `exit code ${code}`}):\n${stderr}`));
    });
  });
}
