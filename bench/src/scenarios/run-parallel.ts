/**
 * Three tools of 50 ms asked for in one step: does the framework overlap them? Reports the wall time
 * of the whole session (the step with the three calls, then the answering step).
 */
import type { Framework } from '../frameworks/framework.js';
import type { ParallelJob, ParallelReport } from '../jobs.js';
import { maxConcurrency, meter, now } from '../shared/meter.js';
import { nextAction, requestFor } from '../shared/plan.js';

export async function runParallel(framework: Framework, job: ParallelJob): Promise<ParallelReport> {
  meter.toolDelayMs = job.toolDelayMs;
  const request = requestFor({ kind: 'parallel', toolCalls: job.calls });
  let once: () => Promise<void>;
  let persistence = 'none';
  let close = async () => {};
  if (job.via === 'agent') {
    const agent = await framework.createAgent({ persistence: job.persistence, maxSteps: 5 });
    let n = 0;
    once = async () => {
      const answer = await agent.run(`parallel-${process.pid}-${n++}`, request);
      if (!answer.includes(`Done: ${job.calls}`)) throw new Error(`Unexpected answer '${answer}'.`);
      agent.clearMockLog();
    };
    persistence = await agent.describePersistence();
    close = () => agent.close();
  } else {
    // flowstack below the agent: one batch of calls through the safety pipeline.
    const { createToolBatchRunner } = await import('../frameworks/flowstack.js');
    const action = nextAction({ kind: 'parallel', toolCalls: job.calls }, 0);
    if (action.kind !== 'tools') throw new Error('The plan has no tool calls.');
    const calls = action.calls.map((c) => ({
      callId: c.callId,
      toolName: c.toolName,
      input: JSON.stringify(c.input),
    }));
    once = createToolBatchRunner(calls, job.via === 'batch-parallel-group');
    persistence = 'memory store';
  }
  for (let i = 0; i < job.warmup; i++) await once();
  const wallMs: number[] = [];
  const toolPhaseMs: number[] = [];
  const concurrency: number[] = [];
  meter.recordSpans = true;
  for (let i = 0; i < job.iterations; i++) {
    meter.spans = [];
    const start = now();
    await once();
    wallMs.push(now() - start);
    const first = Math.min(...meter.spans.map((s) => s.start));
    const last = Math.max(...meter.spans.map((s) => s.end));
    toolPhaseMs.push(last - first);
    concurrency.push(maxConcurrency(meter.spans));
  }
  meter.recordSpans = false;
  await close();
  return {
    scenario: 'parallel',
    wallMs,
    toolPhaseMs,
    concurrency,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    persistence,
  };
}
