/**
 * Per-step overhead: K tool calls, one per step, then the answer (K + 1 model calls = K + 1 steps).
 * Overhead per step = (wall time of the session − time inside the tools) / (K + 1). Each iteration is a
 * new thread, so the figure is for a thread of K steps, not for a store that grows.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { BenchAgent, Framework } from '../frameworks/framework.js';
import type { StepsJob, StepsReport } from '../jobs.js';
import { collectGarbage, meter, now, resetCounters, settleBackgroundWork } from '../shared/meter.js';
import { requestFor } from '../shared/plan.js';

export async function runSteps(framework: Framework, job: StepsJob): Promise<StepsReport> {
  const agent = await framework.createAgent({
    persistence: job.persistence,
    maxSteps: job.k + 5,
    ...(job.sqlitePath ? { sqlitePath: job.sqlitePath } : {}),
    ...(job.postgresUrl ? { postgresUrl: job.postgresUrl } : {}),
    ...(job.postgresSchema ? { postgresSchema: job.postgresSchema } : {}),
  });
  const request = requestFor({ kind: 'chain', toolCalls: job.k });
  const expected = `Done: ${job.k} tool calls.`;
  const prefix = `${job.framework}-${process.pid}-${Date.now()}`;
  const runOnce = async (threadId: string) => {
    resetCounters();
    const cpuStart = process.cpuUsage();
    const start = now();
    const answer = await agent.run(threadId, request);
    const wall = now() - start;
    const cpu = process.cpuUsage(cpuStart);
    if (!answer.includes(expected) || meter.toolCalls !== job.k) {
      throw new Error(
        `${framework.label} answered '${answer.slice(0, 120)}' after ${meter.toolCalls} tool calls; expected ${job.k}.`,
      );
    }
    return { wall, cpuMs: (cpu.user + cpu.system) / 1000, toolMs: meter.toolMs, modelMs: meter.modelMs };
  };

  const steps = job.k + 1;
  const warmupStarted = now();
  let warmupSessions = 0;
  while (
    (warmupSessions * steps < job.warmupSteps || warmupSessions < (job.warmupSessions ?? 0)) &&
    (warmupSessions < 2 || now() - warmupStarted < job.warmupMaxMs)
  ) {
    await runOnce(`${prefix}-w${warmupSessions++}`);
    agent.clearMockLog();
  }
  // The JIT's compiles of what the warm-up made hot finish before the clock starts (bench/README.md).
  await settleBackgroundWork();
  const profiler = job.profilePath ? await startProfiler() : undefined;
  const overheadUs: number[] = [];
  const cpuUs: number[] = [];
  const modelUs: number[] = [];
  const toolUs: number[] = [];
  const started = now();
  for (let i = 0; i < job.iterations; i++) {
    if (i >= job.minIterations && now() - started > job.maxMs) break;
    const { wall, cpuMs, toolMs, modelMs } = await runOnce(`${prefix}-m${i}`);
    overheadUs.push(((wall - toolMs) / steps) * 1000);
    cpuUs.push(((cpuMs - toolMs) / steps) * 1000);
    modelUs.push((modelMs / steps) * 1000);
    toolUs.push((toolMs / steps) * 1000);
    agent.clearMockLog();
  }
  if (profiler && job.profilePath) await profiler.stop(job.profilePath);

  const heapPeakBytes = job.measureHeap ? await measureHeapPeak(agent, `${prefix}-heap`, request) : undefined;
  const persistence = await agent.describePersistence();
  await agent.close();
  return {
    scenario: 'steps',
    steps,
    overheadUs,
    cpuUs,
    warmupSessions,
    modelUs,
    toolUs,
    ...(heapPeakBytes === undefined ? {} : { heapPeakBytes }),
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    persistence,
  };
}

/** One more session with the heap sampled at every model and tool call; the peak over the start. */
async function measureHeapPeak(agent: BenchAgent, threadId: string, request: string): Promise<number> {
  collectGarbage();
  const base = process.memoryUsage().heapUsed;
  meter.heapPeak = base;
  meter.sampling = true;
  try {
    await agent.run(threadId, request);
  } finally {
    meter.sampling = false;
  }
  return meter.heapPeak - base;
}

/** The V8 CPU profiler over the measured iterations only (what `--cpu-prof` records, without start-up). */
async function startProfiler(): Promise<{ stop(path: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return {
    async stop(path) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(path, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
