import { describe, expect, it } from 'vitest';
import type { Agent } from '../agent/index.js';
import type { FileSnapshotSweep } from '../consistency/index.js';
import type { CliIo } from './cli-io.js';
import { startSnapshotSweeps } from './internal/sweep-snapshots.js';

function ioCollecting(errors: string[]): CliIo {
  return {
    out: () => {},
    err: (text) => errors.push(text),
    errWrite: () => {},
    interactive: false,
    env: {},
    stdin: process.stdin,
    stdout: process.stdout,
    stopped: new Promise(() => {}),
  };
}

function agentSweeping(result: () => Promise<FileSnapshotSweep>, calls: { n: number }): Agent {
  return {
    sweepFileSnapshots: () => {
      calls.n++;
      return result();
    },
  } as unknown as Agent;
}

describe('the file snapshot sweeps of serve and worker', () => {
  it('sweeps at once, says which threads failed, and stops after the sweep under way', async () => {
    const errors: string[] = [];
    const calls = { n: 0 };
    let finish = () => {};
    const agent = agentSweeping(
      () =>
        new Promise((resolve) => {
          finish = () => resolve({ threads: 2, removed: 1, failed: [{ threadId: 't9', message: 'EACCES' }] });
        }),
      calls,
    );
    const stop = startSnapshotSweeps(agent, ioCollecting(errors), 'serve');
    expect(calls.n).toBe(1);
    let stopped = false;
    const stopping = stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(errors).toEqual(['flowstack serve: file snapshots of thread t9: EACCES']);
  });

  it('says so when a sweep fails as a whole, and does not throw', async () => {
    const errors: string[] = [];
    const stop = startSnapshotSweeps(
      agentSweeping(() => Promise.reject(new Error('disk gone')), { n: 0 }),
      ioCollecting(errors),
      'worker',
    );
    await stop();
    expect(errors).toEqual(['flowstack worker: the file snapshot sweep failed: Error: disk gone']);
  });
});
