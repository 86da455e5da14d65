/**
 * The jobs a child process can run, and what each reports. One job runs in one fresh `node` process
 * (`child.ts`); the orchestrator (`run-all.ts`) aggregates the reports of many.
 */
import type { FrameworkId, Persistence } from './frameworks/framework.js';

interface JobBase {
  framework: FrameworkId;
  persistence: Persistence;
  sqlitePath?: string;
  postgresUrl?: string;
  /** The PostgreSQL schema this process writes to: one per process, dropped at the end of the run. */
  postgresSchema?: string;
}

/** K tool calls, one per step, then an answer; per-step overhead and memory. */
export interface StepsJob extends JobBase {
  scenario: 'steps';
  k: number;
  /** Warm-up: at least this many steps (whole sessions), unless `warmupMaxMs` runs out first. */
  warmupSteps: number;
  /**
   * Warm-up: also at least this many sessions (turns), unless `warmupMaxMs` runs out first: code that runs once
   * per turn gets hot by turns, not steps.
   */
  warmupSessions?: number;
  warmupMaxMs: number;
  iterations: number;
  /** Stop measuring after this long (at least `minIterations` are run). */
  maxMs: number;
  minIterations: number;
  /** Also run one session with the heap sampled (peak heap growth). */
  measureHeap: boolean;
  /** Write a CPU profile of the measured iterations (after warm-up) to this file. */
  profilePath?: string;
}

/** Three tools of 50 ms asked for in one step. `via`: the agent, or flowstack's `executeToolBatch`. */
export interface ParallelJob extends JobBase {
  scenario: 'parallel';
  via: 'agent' | 'batch-parallel-group' | 'batch-sequential';
  toolDelayMs: number;
  calls: number;
  warmup: number;
  iterations: number;
}

/** `sessions` concurrent sessions of `steps` steps each: throughput, then heap while all are in flight. */
export interface SessionsJob extends JobBase {
  scenario: 'sessions';
  sessions: number;
  steps: number;
  /** Warm-up: rounds of the same size, at most `warmupRounds`, and no more once `warmupMaxMs` has passed (at least one). */
  warmupRounds: number;
  warmupMaxMs: number;
  /** Measured rounds: at most `rounds`, and no more once `measureMaxMs` has passed (at least one). */
  rounds: number;
  measureMaxMs: number;
  /** Also run the rounds that measure the heap per in-flight session. */
  measureMemory: boolean;
  /**
   * Which measures to take, when not all: the quick plan takes from each peer only what a target compares
   * (`throughput`: the measured rounds; `peak` and `held`: the two memory readings, when `measureMemory`).
   */
  measures?: SessionsMeasures;
  /** Peak-heap rounds: at most this many (`rounds` when absent), none more after `measureMaxMs` (at least one). */
  memoryRounds?: number;
  /**
   * Where in the young generation's cycle the first peak round starts, as a fraction of its size (0 ≤ x < 1);
   * round i starts at `memoryPhase + i / memoryRounds`, wrapped (bench/README.md, "Peak rounds across the
   * young generation's cycle").
   */
  memoryPhase?: number;
  /**
   * Megabytes of objects kept alive before the peak rounds and through them, so that no full collection cuts a
   * round short (bench/README.md, "Peak rounds that no full collection cuts short"); `peakBallastMb` in
   * `run-sessions.ts` when absent.
   */
  peakBallastMb?: number;
}

export interface SessionsMeasures {
  throughput: boolean;
  peak: boolean;
  held: boolean;
}

/** Builds a thread of `steps` tool steps, then dies (SIGKILL) inside the next step's tool. */
export interface CrashJob extends JobBase {
  scenario: 'crash';
  steps: number;
  threadId: string;
}

/** Opens the crashed thread in a new process and times the first new step. */
export interface ResumeJob extends JobBase {
  scenario: 'resume';
  threadId: string;
  /** Sessions run on other threads first, so that the code is warm (a worker that was already up). */
  warmSessions: number;
}

export type Job = StepsJob | ParallelJob | SessionsJob | CrashJob | ResumeJob;

export interface ProcessFacts {
  /** Peak resident set size of the process, bytes. */
  maxRssBytes: number;
  persistence: string;
}

export interface StepsReport extends ProcessFacts {
  scenario: 'steps';
  steps: number;
  /** Per-step overhead of each measured iteration, µs (wall time). */
  overheadUs: number[];
  /** The same from the process's CPU time (user + system), which other processes on the machine do not inflate. */
  cpuUs: number[];
  warmupSessions: number;
  /** Mock model time per step of each iteration, µs (part of the overhead above). */
  modelUs: number[];
  /** Tool time per step, µs (taken out of the overhead). */
  toolUs: number[];
  /** Heap growth at its peak during one run, over the heap before it, bytes (when measured). */
  heapPeakBytes?: number;
}

export interface ParallelReport extends ProcessFacts {
  scenario: 'parallel';
  /** Wall time of each run (the step with three tools, and the answering step), ms. */
  wallMs: number[];
  /** From the first tool call's start to the last one's end, per run, ms. */
  toolPhaseMs: number[];
  /** The most tool calls that ran at once, per run. */
  concurrency: number[];
}

export interface SessionsReport extends ProcessFacts {
  scenario: 'sessions';
  /** Steps per second of wall time, per measured round. */
  stepsPerSecond: number[];
  /** Steps per second of the process's CPU time (user + system), per round. */
  stepsPerCpuSecond: number[];
  /** The same for the process's first round (the first of the warm-up), for comparison. */
  firstRoundStepsPerCpuSecond: number;
  /** Rounds run before measuring. */
  warmupRounds: number;
  /** Present when the job measured memory: held in a tool call, after a full collection. */
  heapPerSessionBytes?: number;
  /**
   * Present when the job measured memory: per round run with the heap sampled at every tool and model call,
   * the highest heap seen over the heap before the round (after a full collection), per session.
   */
  peakHeapPerSessionBytes?: number[];
}

export interface CrashReport {
  scenario: 'crash';
  error: string;
}

export interface ResumeReport extends ProcessFacts {
  scenario: 'resume';
  /** From the resume call to the start of the first new tool call, ms. */
  firstStepMs: number;
  /** Of `firstStepMs`, the time inside the mock model's own code, ms (a new process runs it cold too). */
  firstStepModelMs?: number;
  /** The whole resumed run, to its answer, ms. */
  totalMs: number;
}

export type Report = StepsReport | ParallelReport | SessionsReport | CrashReport | ResumeReport;

export const resultMarker = '@@BENCH-RESULT ';
