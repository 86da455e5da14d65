/**
 * Runs one pipeline job in a fresh `node --expose-gc` process (at nice -10 where allowed, as the main
 * scenarios' children) and returns its report.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { PipelineJob, PipelineReport } from './micro-jobs.js';

export const microResultMarker = '@@MICRO-RESULT ';

const childScript = fileURLToPath(new URL('./pipeline-child.js', import.meta.url));

export function spawnPipelineJob(job: PipelineJob, timeoutMs = 120_000): Promise<PipelineReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', childScript, JSON.stringify(job)], {
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
      if (line) return resolve(JSON.parse(line.slice(microResultMarker.length)) as PipelineReport);
      reject(
        new Error(
          `pipeline ${job.tool} × ${job.calls} failed (${signal ?? `exit code ${code}`}):\n${stderr}`,
        ),
      );
    });
  });
}
