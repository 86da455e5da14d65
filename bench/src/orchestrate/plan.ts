/**
 * How many runs of what: the full plan (`npm run bench`, under 15 minutes on 2 cores) and the quick plan
 * (`npm run bench -- --quick`, under 3 minutes with the build), which measures every target once against the
 * peer that sets its line, with fewer runs, and gives indicative figures for checking a change.
 */
import type { FrameworkId, Persistence } from '../frameworks/framework.js';
import type { SessionsMeasures } from '../jobs.js';
import type { ParallelVia } from './collect.js';

export interface StepsConfig {
  framework: FrameworkId;
  persistence: Persistence;
  k: number;
  runs: number;
  /** 0: the in-memory comparison, 1: SQLite against LangGraph, 2: the other stores. Lower runs first in a run. */
  priority: 0 | 1 | 2;
}

export interface BenchPlan {
  quick: boolean;
  /**
   * The whole bench should end within this: a run past `minRuns` is dropped when it would not fit, except
   * runs 1–5 of the per-step comparisons, which the issue requires.
   */
  budgetMs: number;
  /** Kept for the profiles and the report after the last run. */
  reserveMs: number;
  minRuns: number;
  /**
   * Runs of the per-step comparisons and of flowstack's resume rows that always run, whatever the budget: the
   * full plan's five, which the per-step target asks for; in the quick plan only the first.
   */
  requiredRuns: number;
  /**
   * The peers of the in-memory scenarios. The full plan measures all four in each; the quick plan only those that
   * set a target's line in every full run: the Vercel AI SDK per step (the fastest), the AI SDK and the OpenAI
   * Agents SDK in the concurrent sessions (the fastest, and the leanest at the peak heap), none beside the
   * parallel tools (a target of 50 ms, no peer).
   */
  peers: { steps: FrameworkId[]; parallel: FrameworkId[]; sessions: FrameworkId[] };
  /** The `executeToolBatch` rows of the parallel scenario, beside the agents. */
  batchVariants: ParallelVia[];
  /** The frameworks whose crashed thread is resumed (flowstack, and LangGraph in the full plan). */
  resumeFrameworks: FrameworkId[];
  /** The CPU profiles of flowstack's step loop and the pipeline micro-benchmarks, after the runs. */
  profiles: boolean;
  micro: boolean;
  /** How many runs of each per-step row also measure the peak heap of one session. */
  heapRuns: number;
  steps: StepsConfig[];
  /** Warm-up before measuring: steps, and the most time it may take per process. */
  warmupSteps: number;
  warmupSessions: number;
  /** The most time the warm-up may take per process, by K. */
  warmupMaxMs: (k: number) => number;
  iterations: (k: number) => number;
  /** Measured sessions per process at least, whatever `maxMsPerProcess` says. */
  minIterations: (k: number) => number;
  maxMsPerProcess: number;
  parallelRuns: number;
  /**
   * `memoryRuns`: how many of the runs also measure the heap per in-flight session; the figure is the median
   * over all their rounds.
   */
  sessions: {
    count: number;
    steps: number;
    runs: number;
    /** Warm-up rounds per process: at most this many, none more after `warmupMaxMs` (at least one). */
    warmupRounds: number;
    warmupMaxMs: number;
    /** Measured rounds per process: at most this many, none more after `measureMaxMs` (at least one). */
    rounds: number;
    measureMaxMs: number;
    memoryRuns: number;
    /** Peak-heap rounds per memory run: at most this many, none more after `measureMaxMs` (at least one). */
    memoryRounds: number;
    /** What to measure of each framework, when not everything (the quick plan). */
    measuresOf?: (framework: FrameworkId) => SessionsMeasures;
  };
  resume: { steps: number; runs: number; warmSessions: number };
}

const allPeers: FrameworkId[] = ['ai-sdk', 'openai-agents', 'langgraph', 'mastra'];

export function createPlan(options: {
  quick: boolean;
  postgres: { flowstack: boolean; langgraph: boolean };
}): BenchPlan {
  return options.quick ? createQuickPlan(options.postgres) : createFullPlan(options.postgres);
}

function createFullPlan(postgres: { flowstack: boolean; langgraph: boolean }): BenchPlan {
  const runs = 5;
  const steps: StepsConfig[] = [];
  // The in-memory comparison moves most from process to process on a shared machine: two runs more than
  // the others, scheduled after everything else (dropped first when the budget runs short).
  for (const k of [10, 100]) {
    for (const framework of ['flowstack', ...allPeers] as FrameworkId[]) {
      steps.push({ framework, persistence: 'none', k, runs: 7, priority: 0 });
    }
  }
  for (const k of [10, 100]) {
    steps.push({ framework: 'flowstack', persistence: 'sqlite', k, runs, priority: 1 });
    steps.push({ framework: 'langgraph', persistence: 'sqlite', k, runs, priority: 1 });
  }
  for (const k of [10, 100]) {
    steps.push({ framework: 'flowstack', persistence: 'sqlite-full', k, runs: 2, priority: 2 });
    if (postgres.flowstack) {
      steps.push({ framework: 'flowstack', persistence: 'postgres', k, runs: 3, priority: 2 });
    }
    if (postgres.langgraph) {
      steps.push({ framework: 'langgraph', persistence: 'postgres', k, runs: 3, priority: 2 });
    }
  }
  return {
    quick: false,
    // Counted from the start of `npm run bench` at the root, the build and a first install of the peers (a
    // minute or two) included; with the profiles and micro-benchmarks after it (about a minute), the command
    // stays under the 15 minutes asked of it. On a fresh clone of a slow host it took 14.3 minutes when this
    // budget was 11.5 minutes of the bench alone.
    budgetMs: 12 * 60_000,
    reserveMs: 30_000,
    // Run 1 of everything, then the per-step comparisons' runs 2–5, then the rest while the budget lasts:
    // on a slow host the second run of every scenario (1,000 sessions of Mastra and LangGraph take 30–60 s a
    // process) left no time for the five runs asked of the per-step rows.
    minRuns: 1,
    requiredRuns: runs,
    peers: { steps: allPeers, parallel: allPeers, sessions: allPeers },
    batchVariants: ['batch-parallel-group', 'batch-sequential'],
    resumeFrameworks: ['flowstack', 'langgraph'],
    profiles: true,
    micro: true,
    heapRuns: 2,
    steps,
    // Long enough that flowstack's figure no longer falls while it is measured (bench/README.md, "Warm-up to
    // steady state"): at K = 10 its instructions per step still fell by a fifth between 20,000 and 70,000 steps.
    // A slower framework stops at `warmupMaxMs` first, as before.
    warmupSteps: 70_000,
    // And at least this many turns: at K = 100, 20,000 steps are 200 turns, and V8 compiled the agent's per-turn
    // function (about 90 ms of background compile on a slow machine) during the measured sessions.
    warmupSessions: 1_000,
    // At K = 10, 5 s: on a slow host 2 s stopped the Vercel AI SDK's warm-up at 600–760 sessions, and its
    // compiles still running then were counted in the measured CPU time (bench/README.md). At K = 100, 2 s is
    // thousands of steps for every framework, and more would take the run past its budget.
    warmupMaxMs: (k) => (k >= 100 ? 2_000 : 5_000),
    iterations: (k) => (k >= 100 ? 30 : 80),
    minIterations: (k) => (k >= 100 ? 3 : 5),
    maxMsPerProcess: 1_500,
    parallelRuns: 2,
    sessions: {
      count: 1_000,
      steps: 5,
      runs: 3,
      // Six, within the same 5 s: the peers are steady by their fourth round, flowstack by about its sixth
      // (bench/README.md, "Sessions warm up to steady state").
      warmupRounds: 6,
      warmupMaxMs: 5_000,
      rounds: 3,
      measureMaxMs: 5_000,
      // Every run: one process's rounds sit within a few per cent of each other, but processes of one build
      // differ by more (flowstack's medians 43.0–47.1 KiB on one host in one evening) than flowstack's figure is
      // from the target's line, and one process made the verdict. About 40 s more per bench, most of it
      // LangGraph's and Mastra's rounds.
      memoryRuns: 3,
      memoryRounds: 3,
    },
    // More runs than the per-step rows: a new process's first resumed step moves by milliseconds from process
    // to process (3.2–8.7 ms on one host, median 4.7 over 15), against a target of 5 ms; each run is a second.
    resume: { steps: 50, runs: 9, warmSessions: 20 },
  };
}

/**
 * Every target once, each against the peer that sets its line, in under three minutes of a 2-core machine: one
 * process per row (the in-memory per-step and resume rows get more while the budget lasts), warm-ups capped at
 * 1 s, of each peer only what a target compares, and none of the rows that no target reads (LangGraph and
 * Mastra in memory, the OpenAI Agents SDK per step, `synchronous: 'full'`, the parallel rows other than
 * flowstack's agent, LangGraph's resume), nor the profiles and micro-benchmarks. The measured comparisons of
 * the summary run once each: PostgreSQL against LangGraph's PostgresSaver, and (outside this plan, in
 * `run-all.ts`) the footprint and the SQLite drivers. The sessions keep their 1,000: the peak heap per session
 * includes a full young generation (16 MiB) spread over the sessions, so fewer sessions would weigh it more
 * and pull the ratio toward 1.
 */
function createQuickPlan(postgres: { flowstack: boolean; langgraph: boolean }): BenchPlan {
  const steps: StepsConfig[] = [];
  for (const k of [10, 100]) {
    steps.push({ framework: 'flowstack', persistence: 'none', k, runs: 3, priority: 0 });
    steps.push({ framework: 'ai-sdk', persistence: 'none', k, runs: 3, priority: 0 });
  }
  // Far from their lines (13× and 27× against 5× and 10× in full runs), and LangGraph's K = 100 process is the
  // longest of the plan: one run each. PostgreSQL beside LangGraph's PostgresSaver the same way, when a server
  // answers (a measured comparison, no target).
  for (const k of [10, 100]) {
    steps.push({ framework: 'flowstack', persistence: 'sqlite', k, runs: 1, priority: 1 });
    steps.push({ framework: 'langgraph', persistence: 'sqlite', k, runs: 1, priority: 1 });
  }
  for (const k of [10, 100]) {
    if (postgres.flowstack)
      steps.push({ framework: 'flowstack', persistence: 'postgres', k, runs: 1, priority: 1 });
    if (postgres.langgraph)
      steps.push({ framework: 'langgraph', persistence: 'postgres', k, runs: 1, priority: 1 });
  }
  return {
    quick: true,
    // Counted from the start of `npm run bench -- --quick` at the root, its build included: with the report
    // after the last job, the command ends within 3 minutes. Run 1 of everything always runs; the further runs
    // of the in-memory per-step rows and of the resume rows only while the budget lasts.
    budgetMs: 120_000,
    reserveMs: 5_000,
    minRuns: 1,
    requiredRuns: 1,
    peers: { steps: ['ai-sdk'], parallel: [], sessions: ['ai-sdk', 'openai-agents'] },
    batchVariants: [],
    resumeFrameworks: ['flowstack'],
    profiles: false,
    micro: false,
    heapRuns: 0,
    steps,
    // The full plan's goals, under a 1 s cap: on an idle 2-core host that is tens of thousands of steps of
    // flowstack at K = 10 and about 1,000 sessions of the AI SDK, which is steady by session 600.
    warmupSteps: 70_000,
    warmupSessions: 1_000,
    warmupMaxMs: () => 1_000,
    iterations: (k) => (k >= 100 ? 30 : 80),
    // LangGraph's K = 100 session on SQLite takes a third of a second on an idle host, several on a loaded one.
    minIterations: (k) => (k >= 100 ? 2 : 5),
    maxMsPerProcess: 500,
    parallelRuns: 1,
    sessions: {
      count: 1_000,
      steps: 5,
      runs: 1,
      // As in the full plan: flowstack measured after one warm-up round is far from its steady figure
      // (bench/README.md, "Sessions warm up to steady state").
      warmupRounds: 6,
      warmupMaxMs: 5_000,
      rounds: 1,
      measureMaxMs: 5_000,
      memoryRuns: 1,
      // One phase of the young generation's cycle: a round's peak moves by a few KiB a session from one phase to
      // another, so the quick figure of the peak is the roughest here. The held heap beside it does not depend on
      // the phase (24.1–24.9 KiB over five quick runs of one build on a loaded host).
      memoryRounds: 1,
      // Of each peer only what a target compares: the AI SDK's throughput (the fastest in every full run), the
      // OpenAI Agents SDK's peak heap (the leanest there). flowstack's held heap is shown without a peer's.
      measuresOf: (framework) =>
        framework === 'ai-sdk'
          ? { throughput: true, peak: false, held: false }
          : framework === 'openai-agents'
            ? { throughput: false, peak: true, held: false }
            : { throughput: true, peak: true, held: true },
    },
    resume: { steps: 50, runs: 3, warmSessions: 20 },
  };
}

/** The full plan's peers, in the report's order. */
export const peerIds = allPeers;
