/** Reduces the reports of many runs to one figure per row: the median of the per-run medians. */
import type { FrameworkId, Persistence } from '../frameworks/framework.js';
import type { ParallelReport, ResumeReport, SessionsReport, StepsReport } from '../jobs.js';
import {
  type Collected,
  type ParallelVia,
  parallelKey,
  resumeKey,
  stepsKey,
} from '../orchestrate/collect.js';
import { median } from '../shared/stats.js';

export interface StepsRow {
  runs: number;
  /** Per-run medians, µs per step, from wall time. */
  overhead: number[];
  /** Per-run medians, µs per step, from the process's CPU time. */
  cpu: number[];
  model: number[];
  /** CPU overhead without the mock model's own time, per run. */
  runtime: number[];
  heapPeak: number[];
  rss: number[];
  persistence: string;
}

export function stepsRow(
  collected: Collected,
  framework: FrameworkId,
  persistence: Persistence,
  k: number,
): StepsRow | undefined {
  const reports = collected.steps.get(stepsKey(framework, persistence, k));
  if (!reports || reports.length === 0) return undefined;
  return {
    runs: reports.length,
    overhead: reports.map((r) => median(r.overheadUs)),
    cpu: reports.map((r) => median(r.cpuUs)),
    model: reports.map((r) => median(r.modelUs)),
    runtime: reports.map((r) => median(r.cpuUs.map((c, i) => c - (r.modelUs[i] ?? 0)))),
    heapPeak: reports.flatMap((r: StepsReport) => (r.heapPeakBytes === undefined ? [] : [r.heapPeakBytes])),
    rss: reports.map((r) => r.maxRssBytes),
    persistence: reports[0]?.persistence ?? '',
  };
}

export interface ParallelRow {
  wall: number[];
  toolPhase: number[];
  /** The fewest calls that ran at once in any run (3 = always fully overlapped). */
  concurrency: number;
}

export function parallelRow(
  collected: Collected,
  framework: FrameworkId,
  via: ParallelVia,
): ParallelRow | undefined {
  const reports: ParallelReport[] | undefined = collected.parallel.get(parallelKey(framework, via));
  if (!reports || reports.length === 0) return undefined;
  return {
    wall: reports.map((r) => median(r.wallMs)),
    toolPhase: reports.map((r) => median(r.toolPhaseMs)),
    concurrency: Math.min(...reports.flatMap((r) => r.concurrency)),
  };
}

export interface SessionsRow {
  stepsPerSecond: number[];
  stepsPerCpuSecond: number[];
  /** The first round of each process (the first of its warm-up), per process. */
  firstRoundStepsPerCpuSecond: number[];
  /** Warm-up rounds and measured rounds, per process. */
  warmupRounds: number[];
  measuredRounds: number[];
  heapPerSession: number[];
  /** Peak heap per session during a round, every measured round of every process that measured it. */
  peakHeapPerSession: number[];
  rss: number[];
}

export function sessionsRow(collected: Collected, framework: FrameworkId): SessionsRow | undefined {
  const reports: SessionsReport[] | undefined = collected.sessions.get(framework);
  if (!reports || reports.length === 0) return undefined;
  return {
    // A process that took no throughput rounds (the quick plan's OpenAI Agents SDK) has none to give.
    stepsPerSecond: reports.filter((r) => r.stepsPerSecond.length > 0).map((r) => median(r.stepsPerSecond)),
    stepsPerCpuSecond: reports
      .filter((r) => r.stepsPerCpuSecond.length > 0)
      .map((r) => median(r.stepsPerCpuSecond)),
    firstRoundStepsPerCpuSecond: reports.map((r) => r.firstRoundStepsPerCpuSecond),
    warmupRounds: reports.map((r) => r.warmupRounds),
    measuredRounds: reports.map((r) => r.stepsPerCpuSecond.length),
    heapPerSession: reports.flatMap((r) =>
      r.heapPerSessionBytes === undefined ? [] : [r.heapPerSessionBytes],
    ),
    peakHeapPerSession: reports.flatMap((r) => r.peakHeapPerSessionBytes ?? []),
    rss: reports.map((r) => r.maxRssBytes),
  };
}

export interface ResumeRow {
  firstStep: number[];
  /** Of the first step, the time inside the mock model (NaN in results written before it was measured). */
  firstStepModel: number[];
  total: number[];
}

export function resumeRow(
  collected: Collected,
  framework: FrameworkId,
  start: 'cold' | 'warm',
): ResumeRow | undefined {
  const reports: ResumeReport[] | undefined = collected.resume.get(resumeKey(framework, start));
  if (!reports || reports.length === 0) return undefined;
  return {
    firstStep: reports.map((r) => r.firstStepMs),
    firstStepModel: reports.map((r) => r.firstStepModelMs ?? Number.NaN),
    total: reports.map((r) => r.totalMs),
  };
}

export function mid(values: readonly number[] | undefined): number {
  return values && values.length > 0 ? median(values) : Number.NaN;
}

/**
 * flowstack's session cost split by a straight line through its two in-memory sessions (K = 10 and
 * K = 100, one turn of K + 1 steps each): the CPU a turn costs whatever its length, and each step's.
 * Meaningful for a framework whose per-step cost is flat; the peers' grows with the thread.
 */
export interface TurnSplit {
  fixedUs: number;
  perStepUs: number;
  /** The fixed part's share of a K = 10 session. */
  shareAtK10: number;
}

export function turnSplit(collected: Collected): TurnSplit | undefined {
  const k10 = stepsRow(collected, 'flowstack', 'none', 10);
  const k100 = stepsRow(collected, 'flowstack', 'none', 100);
  if (!k10 || !k100) return undefined;
  const session10 = mid(k10.cpu) * 11;
  const session100 = mid(k100.cpu) * 101;
  const perStepUs = (session100 - session10) / 90;
  const fixedUs = session10 - 11 * perStepUs;
  if (!(perStepUs > 0) || !(fixedUs > 0)) return undefined;
  return { fixedUs, perStepUs, shareAtK10: fixedUs / session10 };
}
