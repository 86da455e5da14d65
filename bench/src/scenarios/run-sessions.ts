/**
 * Many concurrent sessions of a few steps each, on one agent. Throughput: all sessions started at once,
 * steps (model calls) per second of CPU time and of wall time, rounds back to back. Memory, two ways
 * (bench/README.md, "Memory per session as the peak heap"):
 * - peak: rounds like the others, but begun after a full collection and with the heap sampled at every tool
 *   and model call; the highest heap seen over the heap at the start, per session: what a process needs to
 *   run this many sessions at once, the garbage they make before the collector takes it back included. A
 *   ballast of kept objects lifts the point where V8 collects the old generation again above every round;
 *   without it the bench's small process heap set that point, and cut the rounds of the frameworks that
 *   make the most garbage short (bench/README.md, "Peak rounds that no full collection cuts short");
 * - held: every session waits inside its third tool call until all of them are there; then the heap (after a
 *   full collection) over the heap before the round, per session: what the sessions themselves keep alive.
 * The mocks' call logs are dropped at every sample and at the gate: they are the bench's, not the framework's.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import type { BenchAgent, Framework } from '../frameworks/framework.js';
import type { SessionsJob, SessionsReport } from '../jobs.js';
import { collectGarbage, meter, now, settleBackgroundWork } from '../shared/meter.js';
import { plannedCall, requestFor } from '../shared/plan.js';

export async function runSessions(framework: Framework, job: SessionsJob): Promise<SessionsReport> {
  const agent = await framework.createAgent({
    persistence: job.persistence,
    maxSteps: job.steps + 5,
    ...(job.sqlitePath !== undefined ? { sqlitePath: job.sqlitePath } : {}),
  });
  const request = requestFor({ kind: 'chain', toolCalls: job.steps - 1 });
  let round = 0;
  const runRound = async (sessions: number) => {
    const prefix = `s-${process.pid}-${round++}`;
    const answers = await Promise.all(
      Array.from({ length: sessions }, (_, i) => agent.run(`${prefix}-${i}`, request)),
    );
    if (answers.some((a) => !a.includes(`Done: ${job.steps - 1}`)))
      throw new Error('A session did not finish its steps.');
    agent.clearMockLog();
  };

  // No forced collection before a round: `gc()` is a full, memory-reducing collection that no server under load
  // runs between bursts, and what follows it ran 1.5–2× slower for every framework tried (the AI SDK's figure
  // fell from about 5,000 to 2,600 steps per CPU second, flowstack's from about 10,000 to 6,000; interleaved
  // pairs; bench/README.md, "Rounds without a forced collection"). Each round starts where the last one left the
  // heap, as in a running server.
  const measureRound = async () => {
    const cpuStart = process.cpuUsage();
    const start = now();
    await runRound(job.sessions);
    const cpu = process.cpuUsage(cpuStart);
    return {
      wall: (job.sessions * job.steps) / ((now() - start) / 1000),
      cpu: (job.sessions * job.steps) / ((cpu.user + cpu.system) / 1e6),
    };
  };

  // Warm-up at full size: the first rounds of this many concurrent sessions also grow the heap and its young
  // generation, and the JIT is still at work; every framework tried ran its first round 5–40 % slower than
  // its second, and went on gaining until about the fourth, flowstack until about its sixth (the bench's README). Rounds are run until
  // `warmupRounds` or `warmupMaxMs`, whichever comes first, so a framework whose round takes many seconds
  // is not warmed for minutes.
  const warmupStart = now();
  const first = await measureRound();
  let warmupRounds = 1;
  while (warmupRounds < job.warmupRounds && now() - warmupStart < job.warmupMaxMs) {
    await runRound(job.sessions);
    warmupRounds++;
  }
  const measures = job.measures ?? { throughput: true, peak: true, held: true };
  const stepsPerSecond: number[] = [];
  const stepsPerCpuSecond: number[] = [];
  if (measures.throughput) {
    // The JIT's compiles of what the warm-up made hot finish before the clock starts (bench/README.md).
    await settleBackgroundWork();
    const measureStart = now();
    do {
      const round = await measureRound();
      stepsPerSecond.push(round.wall);
      stepsPerCpuSecond.push(round.cpu);
    } while (stepsPerSecond.length < job.rounds && now() - measureStart < job.measureMaxMs);
  }

  const peakHeapPerSessionBytes =
    job.measureMemory && measures.peak ? await measurePeakHeap(agent, job, runRound) : undefined;
  const heapPerSessionBytes =
    job.measureMemory && measures.held ? await measureInFlightHeap(agent, job, request) : undefined;
  const persistence = await agent.describePersistence();
  await agent.close();
  return {
    scenario: 'sessions',
    stepsPerSecond,
    stepsPerCpuSecond,
    firstRoundStepsPerCpuSecond: first.cpu,
    warmupRounds,
    ...(heapPerSessionBytes === undefined ? {} : { heapPerSessionBytes }),
    ...(peakHeapPerSessionBytes === undefined ? {} : { peakHeapPerSessionBytes }),
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    persistence,
  };
}

/**
 * Rounds as measured above (at most `memoryRounds`, none more after `measureMaxMs`, at least one), each begun after
 * a full collection, with the heap sampled at every tool and model call (the same calls in every framework:
 * the bench's tools and each mock's respond). Per round: the highest heap seen over the heap at its start,
 * per session. A sample reads the heap only; it is not timed.
 */
async function measurePeakHeap(
  agent: BenchAgent,
  job: SessionsJob,
  runRound: (sessions: number) => Promise<void>,
): Promise<number[]> {
  const perRound: number[] = [];
  const rounds = job.memoryRounds ?? job.rounds;
  const start = now();
  meter.onSample = () => agent.clearMockLog();
  ballast.kept = keptObjects(job.peakBallastMb ?? peakBallastMb);
  try {
    do {
      collectGarbage();
      const base = process.memoryUsage().heapUsed;
      fillYoungGeneration((job.memoryPhase ?? 0) + perRound.length / rounds);
      meter.heapPeak = base;
      meter.sampling = true;
      await runRound(job.sessions);
      meter.sampling = false;
      perRound.push((meter.heapPeak - base) / job.sessions);
    } while (perRound.length < rounds && now() - start < job.measureMaxMs);
  } finally {
    meter.sampling = false;
    meter.onSample = undefined;
    ballast.kept = undefined;
  }
  return perRound;
}

/**
 * The ballast of the peak rounds, in megabytes. After a full collection V8 lets the old generation grow to a
 * few times what survived it before it marks again; this process keeps about 20 MB, so without a ballast a
 * framework whose round promotes more than about 60 MB was collected mid-round and read as that allowance (the
 * OpenAI Agents SDK 89 KiB a session instead of 123, the AI SDK 114 instead of 162; flowstack, whose rounds
 * fit, 76 and 79). With 80 MB no framework's reading moves when the ballast doubles (`probes/peak-without-cap.mjs`).
 */
const peakBallastMb = 80;

/** Where the ballast is kept while the peak rounds run. */
const ballast: { kept: unknown } = { kept: undefined };

/** `megabytes` of plain objects of five small fields, 64 bytes each on 64-bit Node. */
function keptObjects(megabytes: number): object[] {
  return Array.from({ length: (megabytes * 1024 * 1024) / 64 }, (_, i) => ({ a: i, b: 0, c: 0, d: 0, e: 0 }));
}

/** Where the short-lived objects of `fillYoungGeneration` go, one after another: kept from being optimized away. */
const sink: { last: unknown } = { last: undefined };

/**
 * Allocates short-lived objects worth `phase` (wrapped to 0–1) of the young generation's size, so that the round
 * that follows starts at that point of the young generation's cycle. A round's highest sample falls where the
 * young generation is full, on top of the old generation at that moment; where the round's last such moment
 * falls depends on the framework's exact allocations, and a round begun right after a full collection, with
 * an empty young generation, read up to 7 KiB a session apart from one phase to another for one build, the
 * same from process to process (bench/README.md, "Peak rounds across the young generation's cycle"). The objects
 * die at once; the next scavenge drops them.
 */
function fillYoungGeneration(phase: number): void {
  const fraction = phase - Math.floor(phase);
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  const bytes = fraction * (space?.space_size ?? 16 * 1024 * 1024);
  // A plain object of five small fields takes 64 bytes on 64-bit Node.
  for (let allocated = 0; allocated < bytes; allocated += 64)
    sink.last = { a: allocated, b: 0, c: 0, d: 0, e: 0 };
  sink.last = undefined;
}

async function measureInFlightHeap(agent: BenchAgent, job: SessionsJob, request: string): Promise<number> {
  const gateTool = plannedCall(2).toolName;
  let waiting = 0;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let inFlight = 0;
  collectGarbage();
  const base = process.memoryUsage().heapUsed;
  meter.beforeTool = (name) => {
    if (name !== gateTool) return undefined;
    waiting++;
    if (waiting === job.sessions) {
      agent.clearMockLog();
      collectGarbage();
      inFlight = process.memoryUsage().heapUsed;
      release();
    }
    return gate;
  };
  try {
    const prefix = `heap-${process.pid}`;
    await Promise.all(Array.from({ length: job.sessions }, (_, i) => agent.run(`${prefix}-${i}`, request)));
  } finally {
    meter.beforeTool = undefined;
  }
  return (inFlight - base) / job.sessions;
}
