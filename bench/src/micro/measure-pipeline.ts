/**
 * One pipeline job, in the process it was started for: warm-up, a full collection, then one sample
 * per batch of its wall time and of the process's CPU time (user + system), each divided by the calls
 * in the batch. With `breakdown`, every stage of `defaultToolStages` is wrapped to record when it is
 * entered and when its promise settles; a stage's self time is its own span minus the span of the next
 * stage it entered. The wrappers cost time themselves, so breakdown jobs never give the headline figures.
 */
import { performance } from 'node:perf_hooks';
import type { ToolStage } from '../../../dist/src/blocks.js';
import { defaultToolStages } from '../../../dist/src/blocks.js';
import { collectGarbage } from '../shared/meter.js';
import { median } from '../shared/stats.js';
import type { PipelineJob, PipelineReport } from './micro-jobs.js';
import { createPipelineRunner } from './pipeline-setup.js';

export async function measurePipeline(job: PipelineJob): Promise<PipelineReport> {
  if (job.breakdown && job.calls !== 1) throw new Error('A stage breakdown needs one call per batch.');
  const timing = job.breakdown ? createStageTiming(defaultToolStages) : undefined;
  const runner = createPipelineRunner({
    tool: job.tool,
    calls: job.calls,
    ...(timing ? { stages: timing.stages } : {}),
  });
  for (let i = 0; i < job.warmupBatches; i++) await runner.runBatch();
  timing?.reset();
  collectGarbage();
  const timerMicros = measureTimerCost();

  const wallMicros: number[] = [];
  const cpuMicros: number[] = [];
  for (let i = 0; i < job.batches; i++) {
    const wallStart = performance.now();
    const cpuStart = process.cpuUsage();
    await runner.runBatch();
    const cpu = process.cpuUsage(cpuStart);
    const wallEnd = performance.now();
    wallMicros.push(((wallEnd - wallStart) * 1_000) / job.calls);
    cpuMicros.push((cpu.user + cpu.system) / job.calls);
    timing?.collect();
  }
  await checkRows(job, await runner.countRows());
  return {
    job,
    wallMicros,
    cpuMicros,
    timerMicros,
    ...(timing ? { stages: timing.summarize() } : {}),
    nodeVersion: process.version,
  };
}

/** The measured batches must have written what the variant claims: one journal (and audit) row per call. */
async function checkRows(job: PipelineJob, rows: { journal: number; audit: number }): Promise<void> {
  const calls = (job.warmupBatches + job.batches) * job.calls;
  const expected = {
    journal: job.tool === 'safe-no-store' ? 0 : calls,
    audit: job.tool === 'controlled' ? calls : 0,
  };
  if (rows.journal !== expected.journal || rows.audit !== expected.audit) {
    throw new Error(
      `Expected ${expected.journal} journal and ${expected.audit} audit rows, found ${rows.journal} and ${rows.audit}.`,
    );
  }
}

/** The cost of the two clock readings around an empty await, measured the way batches are. */
function measureTimerCost(): number {
  const samples: number[] = [];
  for (let i = 0; i < 2_000; i++) {
    const wallStart = performance.now();
    const cpuStart = process.cpuUsage();
    process.cpuUsage(cpuStart);
    samples.push((performance.now() - wallStart) * 1_000);
  }
  return median(samples);
}

interface StageTiming {
  stages: ToolStage[];
  /** Forgets what the warm-up recorded. */
  reset(): void;
  /** Turns the spans of the batch that just ran into self times. */
  collect(): void;
  summarize(): { name: string; selfMicros: number; entered: number }[];
}

function createStageTiming(original: readonly ToolStage[]): StageTiming {
  const count = original.length;
  const enteredAt = new Float64Array(count);
  const settledAt = new Float64Array(count);
  const entered = new Uint8Array(count);
  const selfMicros: number[][] = original.map(() => []);
  const spanOf = (index: number) => (settledAt[index] ?? 0) - (enteredAt[index] ?? 0);
  const stages = original.map(
    (stage, index): ToolStage =>
      (state, next) => {
        entered[index] = 1;
        enteredAt[index] = performance.now();
        return stage(state, next).then((result) => {
          settledAt[index] = performance.now();
          return result;
        });
      },
  );
  return {
    stages,
    reset() {
      for (const samples of selfMicros) samples.length = 0;
      entered.fill(0);
    },
    collect() {
      let inner = -1;
      for (let index = count - 1; index >= 0; index--) {
        if (!entered[index]) continue;
        let span = spanOf(index);
        if (inner >= 0) span -= spanOf(inner);
        selfMicros[index]?.push(span * 1_000);
        inner = index;
      }
      entered.fill(0);
    },
    summarize() {
      return original.map((stage, index) => {
        const samples = selfMicros[index] ?? [];
        return {
          name: stage.name || `stage ${index + 1}`,
          selfMicros: median(samples),
          entered: samples.length,
        };
      });
    },
  };
}
