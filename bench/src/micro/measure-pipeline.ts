/**
 * One pipeline job, in the process it was started for: warm-up, a full collection, then one sample
 * per batch of its wall time and of the process's CPU time (user + system), each divided by the calls
 * in the batch. With `breakdown`, every check, guard, the execute and every transform of
 * `defaultToolPipeline` is wrapped to record when it is entered and when its promise settles; since the
 * pipeline runs them one after another, that span is the stage's self time. The wrappers cost time
 * themselves, so breakdown jobs never give the headline figures.
 */
import { performance } from 'node:perf_hooks';
import type { ToolExecute, ToolGuard, ToolPipeline, ToolTransform } from '../../../dist/src/blocks.js';
import { defaultToolPipeline } from '../../../dist/src/blocks.js';
import { collectGarbage } from '../shared/meter.js';
import { median } from '../shared/stats.js';
import type { PipelineJob, PipelineReport } from './micro-jobs.js';
import { createPipelineRunner } from './pipeline-setup.js';

export async function measurePipeline(job: PipelineJob): Promise<PipelineReport> {
  if (job.breakdown && job.calls !== 1) throw new Error('A stage breakdown needs one call per batch.');
  const timing = job.breakdown ? createStageTiming(defaultToolPipeline) : undefined;
  const runner = createPipelineRunner({
    tool: job.tool,
    calls: job.calls,
    ...(timing ? { pipeline: timing.pipeline } : {}),
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
  pipeline: ToolPipeline;
  /** Forgets what the warm-up recorded. */
  reset(): void;
  /** Turns the spans of the batch that just ran into one self time per stage it entered. */
  collect(): void;
  summarize(): { name: string; selfMicros: number; entered: number }[];
}

/**
 * Wraps every check, guard, the execute and every transform of `original`, in pipeline order. The rows
 * run one stage after another, so a stage's self time is its own span; only a transform that runs the
 * tool again (the retry stage, through the `execute` it is given) has the tool's span taken out of its own.
 */
function createStageTiming(original: ToolPipeline): StageTiming {
  const names: string[] = [];
  const spent: number[] = [];
  const entered: boolean[] = [];
  const selfMicros: number[][] = [];
  let executeTime = 0;
  const slot = (phase: string, name: string) => {
    names.push(`${phase}: ${name || 'anonymous'}`);
    spent.push(0);
    entered.push(false);
    selfMicros.push([]);
    return names.length - 1;
  };
  const wrapGuard = (phase: string, guard: ToolGuard): ToolGuard => {
    const index = slot(phase, guard.name);
    return async (state) => {
      const start = performance.now();
      const result = await guard(state);
      spent[index] = (spent[index] ?? 0) + performance.now() - start;
      entered[index] = true;
      return result;
    };
  };
  const checks = original.checks.map((check) => wrapGuard('check', check));
  const guards = original.guards.map((guard) => wrapGuard('guard', guard));
  const executeIndex = slot('execute', original.execute.name);
  const execute: ToolExecute = async (state) => {
    const start = performance.now();
    const result = await original.execute(state);
    const span = performance.now() - start;
    executeTime += span;
    spent[executeIndex] = (spent[executeIndex] ?? 0) + span;
    entered[executeIndex] = true;
    return result;
  };
  const transforms = original.transforms.map((transform): ToolTransform => {
    const index = slot('transform', transform.name);
    return async (state, result, run) => {
      const start = performance.now();
      const executedBefore = executeTime;
      const answer = await transform(state, result, run);
      const span = performance.now() - start - (executeTime - executedBefore);
      spent[index] = (spent[index] ?? 0) + span;
      entered[index] = true;
      return answer;
    };
  });
  const clear = () => {
    spent.fill(0);
    entered.fill(false);
  };
  return {
    pipeline: { checks, guards, execute, transforms },
    reset() {
      for (const samples of selfMicros) samples.length = 0;
      clear();
    },
    collect() {
      for (let index = 0; index < names.length; index++) {
        if (entered[index]) selfMicros[index]?.push((spent[index] ?? 0) * 1_000);
      }
      clear();
    },
    summarize() {
      return names.map((name, index) => {
        const samples = selfMicros[index] ?? [];
        return { name, selfMicros: median(samples), entered: samples.length };
      });
    },
  };
}
