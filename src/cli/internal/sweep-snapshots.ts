import type { Agent } from '../../agent/index.js';
import type { CliIo } from '../cli-io.js';

/** How often a long-running command applies the file snapshot retention to every thread. */
export const sweepEveryMs = 60 * 60 * 1000;

/**
 * Applies the file snapshot retention to every thread now and then every hour, in the background
 * (`agent.sweepFileSnapshots`). A sweep that fails, or fails for some threads, is said on stderr and
 * tried again at the next hour. Returns the function that stops it and waits for a sweep under way.
 */
export function startSnapshotSweeps(agent: Agent, io: CliIo, command: string): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = agent.sweepFileSnapshots().then(
      (report) => {
        for (const failure of report.failed)
          io.err(`flowstack ${command}: file snapshots of thread ${failure.threadId}: ${failure.message}`);
      },
      (error: unknown) => io.err(`flowstack ${command}: the file snapshot sweep failed: ${String(error)}`),
    );
  };
  sweep();
  const timer = setInterval(sweep, sweepEveryMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
