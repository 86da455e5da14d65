/**
 * `npm run bench`: runs every scenario in fresh child processes, interleaving frameworks run by run so that
 * drift of the machine hits all of them alike, then writes `docs/benchmarks.md` (and the raw figures to
 * `bench/.tmp/results.json`). With `--quick`, the quick plan (`orchestrate/plan.ts`) writes
 * `bench/.tmp/benchmarks-quick.md` instead and prints its summary table of targets.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFootprint } from './footprint/run-footprint.js';
import type { FrameworkId } from './frameworks/framework.js';
import type { Job, ParallelReport, Report, ResumeReport, SessionsReport, StepsReport } from './jobs.js';
import { appendMicroSection } from './micro/append-micro-section.js';
import {
  type Collected,
  createCollected,
  type ParallelVia,
  parallelKey,
  push,
  resumeKey,
  stepsKey,
} from './orchestrate/collect.js';
import { readMachine, readVersions } from './orchestrate/describe-environment.js';
import { type BenchPlan, createPlan } from './orchestrate/plan.js';
import { dropBenchSchemas, postgresSchemaFor, preparePostgres } from './orchestrate/prepare-postgres.js';
import { describeJob, describePriority, spawnJob } from './orchestrate/spawn-job.js';
import { summarizeProfile } from './orchestrate/summarize-profile.js';
import { keepScaleOutSection } from './report/keep-scale-out-section.js';
import { renderTargetsTable, writeReport } from './report/write-report.js';
import { measureSqliteDrivers } from './sqlite-drivers/measure-sqlite-drivers.js';

const benchDir = fileURLToPath(new URL('..', import.meta.url));
const repoDir = join(benchDir, '..');
const tmpDir = join(benchDir, '.tmp');
const dbDir = join(tmpDir, 'db');
const profileDir = join(tmpDir, 'profiles');

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const startedAt = Date.now();
  // `npm run bench` at the root passes when it started: the budget then covers its build and a first
  // install of the peers too (`npm run bench` in bench/ alone counts from here).
  const commandStartedAt = Number(process.env.FLOWSTACK_BENCH_STARTED_AT) || startedAt;
  if (!existsSync(join(repoDir, 'dist', 'src', 'index.js'))) {
    throw new Error('flowstack is not built: run `npm ci && npm run build` at the repository root first.');
  }
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(dbDir, { recursive: true });
  mkdirSync(profileDir, { recursive: true });

  const collected = createCollected();
  // Without a server answering (within 3 s), the PostgreSQL rows are skipped with a note, in both plans.
  const postgres = await preparePostgres();
  collected.notes.push(...postgres.notes);
  const plan = createPlan({
    quick,
    postgres: { flowstack: postgres.flowstack, langgraph: postgres.langgraph },
  });
  const machineBefore = readMachine();
  const log = (text: string) =>
    process.stdout.write(`[${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${text}\n`);

  const run = async (planned: PlannedJob) => {
    const { job } = planned;
    log(describeJob(job));
    try {
      const report = await spawnJob(job, { timeoutMs: planned.timeoutMs ?? 240_000 });
      if (report) planned.onReport(report);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      collected.failures.push({ job: describeJob(job), error: message });
      log(`  failed: ${message.split('\n')[0]}`);
    }
  };

  // First the installs (nothing timed runs beside them), the cold imports and the SQLite drivers on Node 22,
  // counted in the budget, except a first run's install of that Node and build of its driver (minutes, once).
  const footprint = await runFootprint({ quick, benchDir, repoDir, log });
  collected.footprint = footprint.footprint;
  const drivers = await measureSqliteDrivers({ quick, benchDir, dbDir, log });
  collected.sqliteDrivers = drivers;
  const setupFailures = [...footprint.footprint.failures, ...(drivers.measured ? drivers.failures : [])];
  collected.failures.push(...setupFailures.map((error) => ({ job: 'footprint or SQLite drivers', error })));
  const budgetStartedAt = commandStartedAt + drivers.setupMs;

  const crashed = await prepareCrashedThreads(plan, collected, log);
  const maxRuns = Math.max(
    ...plan.steps.map((s) => s.runs),
    plan.parallelRuns,
    plan.sessions.runs,
    plan.resume.runs,
  );
  // The first `minRuns` runs of everything, then the remaining required runs of the per-step comparisons (at
  // least 5 in the full plan: they always run, whatever the budget), then the remaining runs of the rest
  // while the budget lasts. Each list keeps the frameworks interleaved run by run.
  const runs = Array.from({ length: maxRuns }, (_, r) =>
    jobsForRun(r, { plan, collected, crashed, postgresUrl: postgres.url }),
  );
  const order = [
    ...runs.slice(0, plan.minRuns).flat(),
    ...runs.slice(plan.minRuns).flatMap((jobs) => jobs.filter((j) => j.essential)),
    ...runs.slice(plan.minRuns).flatMap((jobs) => jobs.filter((j) => !j.essential)),
  ];
  // How long each job took last time, to decide whether the next one still fits in the time budget.
  const lastDuration = new Map<string, number>();
  let skipped = 0;
  let current = -1;
  for (const planned of order) {
    if (planned.run >= plan.minRuns && !planned.essential) {
      const estimate = lastDuration.get(planned.key) ?? 5_000;
      if (Date.now() - budgetStartedAt + estimate + plan.reserveMs > plan.budgetMs) {
        skipped++;
        continue;
      }
    }
    if (planned.run !== current) {
      current = planned.run;
      log(`— run ${current + 1} of ${maxRuns}`);
    }
    const jobStart = Date.now();
    await run(planned);
    lastDuration.set(planned.key, Date.now() - jobStart);
  }
  if (skipped > 0) {
    const note = plan.quick
      ? `${skipped} jobs of runs ${plan.minRuns + 1}–${maxRuns} were left out to stay within the quick plan's ` +
        `${plan.budgetMs / 1000}-second budget (load average ${readMachine().loadAverage.join(', ')} at the end); ` +
        'the "runs" columns say how many runs each row has.'
      : `The machine was slow during this run (load average ${readMachine().loadAverage.join(', ')} at the end): ` +
        `${skipped} jobs of runs ${plan.minRuns + 1}–${maxRuns} were left out to stay within the ` +
        `${plan.budgetMs / 60_000}-minute budget (the first five runs of the per-step comparisons and of flowstack's resume rows are never left out); ` +
        'the "runs" columns say how many runs each row has.';
    collected.notes.push(note);
    log(note);
  }

  if (postgres.flowstack || postgres.langgraph) {
    const note = await dropBenchSchemas(postgres.url);
    if (note) collected.notes.push(note);
  }
  if (plan.profiles) await profileFlowstack(collected, log, postgres.url);
  collected.notes.push(describePriority());
  const machineAfter = readMachine();
  const report = writeReport({
    collected,
    plan,
    machine: { before: machineBefore, after: machineAfter },
    versions: readVersions(benchDir, repoDir),
    durationSeconds: (Date.now() - startedAt) / 1000,
  });
  // A quick run gives indicative figures for checking a change: it does not replace the published ones.
  const docPath = quick ? join(tmpDir, 'benchmarks-quick.md') : join(repoDir, 'docs', 'benchmarks.md');
  writeFileSync(
    docPath,
    plan.micro
      ? (await appendMicroSection(report, { quick, tmpDir, log })) +
          keepScaleOutSection(join(repoDir, 'docs', 'benchmarks.md'))
      : report,
  );
  writeFileSync(join(tmpDir, 'results.json'), JSON.stringify(collected, mapReplacer, 2));
  // The footprint's installed projects go once nothing is timed any more: removing a large tree keeps a busy
  // disk busy for a minute.
  footprint.cleanUp();
  log(`wrote ${docPath} (${collected.failures.length} failed jobs)`);
  if (quick) {
    const seconds = ((Date.now() - commandStartedAt) / 1000).toFixed(0);
    process.stdout.write(
      `\nQuick bench: indicative figures, fewer and shorter runs than \`npm run bench\` (${seconds} s since the ` +
        `command started; load average ${machineBefore.loadAverage.join(', ')} at the start, ` +
        `${machineAfter.loadAverage.join(', ')} at the end).\n\n${renderTargetsTable(collected)}\n`,
    );
  }
}

interface PlannedJob {
  /** The same job in another run has the same key. */
  key: string;
  run: number;
  /**
   * The per-step comparisons (in memory, and SQLite against LangGraph) and flowstack's resume rows, in their
   * first `plan.requiredRuns` runs.
   */
  essential: boolean;
  job: Job;
  onReport(report: Report): void;
  timeoutMs?: number;
}

/** The jobs of run `r`, in order: every framework's run `r` of each scenario, one after another. */
function jobsForRun(
  r: number,
  context: { plan: BenchPlan; collected: Collected; crashed: Map<FrameworkId, string>; postgresUrl: string },
): PlannedJob[] {
  const { plan, collected } = context;
  const jobs: PlannedJob[] = [];
  const stepsJobs = (priority: number) => plan.steps.filter((c) => c.priority === priority && r < c.runs);
  const later: PlannedJob[] = [];
  for (const config of [...stepsJobs(0), ...stepsJobs(1), ...stepsJobs(2)]) {
    const target = config.priority === 2 ? later : jobs;
    const key = stepsKey(config.framework, config.persistence, config.k);
    target.push({
      key: `steps|${key}`,
      run: r,
      // Runs past the required ones are extras, scheduled last and dropped first when time runs short.
      essential: config.priority < 2 && r < plan.requiredRuns,
      job: {
        scenario: 'steps',
        framework: config.framework,
        persistence: config.persistence,
        k: config.k,
        warmupSteps: plan.warmupSteps,
        warmupSessions: plan.warmupSessions,
        warmupMaxMs: plan.warmupMaxMs(config.k),
        iterations: plan.iterations(config.k),
        maxMs: plan.maxMsPerProcess,
        minIterations: plan.minIterations(config.k),
        measureHeap: r < plan.heapRuns,
        sqlitePath: join(dbDir, `${config.framework}-${config.persistence}-k${config.k}-r${r}.db`),
        postgresUrl: context.postgresUrl,
        ...(config.persistence === 'postgres'
          ? { postgresSchema: postgresSchemaFor(config.framework as 'flowstack' | 'langgraph', config.k, r) }
          : {}),
      },
      onReport: (report) => push(collected.steps, key, report as StepsReport),
    });
  }
  if (r < plan.parallelRuns) {
    const variants: [FrameworkId, ParallelVia][] = [
      ['flowstack', 'agent'],
      ...plan.batchVariants.map((via): [FrameworkId, ParallelVia] => ['flowstack', via]),
      ...plan.peers.parallel.map((id): [FrameworkId, ParallelVia] => [id, 'agent']),
    ];
    for (const [framework, via] of variants) {
      const key = parallelKey(framework, via);
      jobs.push({
        key: `parallel|${key}`,
        run: r,
        essential: false,
        job: {
          scenario: 'parallel',
          framework,
          persistence: 'none',
          via,
          toolDelayMs: 50,
          calls: 3,
          warmup: 2,
          iterations: 5,
        },
        onReport: (report) => push(collected.parallel, key, report as ParallelReport),
      });
    }
  }
  if (r < plan.sessions.runs) {
    for (const framework of ['flowstack', ...plan.peers.sessions] as FrameworkId[]) {
      const measureMemory = r < plan.sessions.memoryRuns;
      jobs.push({
        key: `sessions|${framework}|${measureMemory}`,
        run: r,
        essential: false,
        job: {
          scenario: 'sessions',
          framework,
          persistence: 'none',
          sessions: plan.sessions.count,
          steps: plan.sessions.steps,
          warmupRounds: plan.sessions.warmupRounds,
          warmupMaxMs: plan.sessions.warmupMaxMs,
          rounds: plan.sessions.rounds,
          measureMaxMs: plan.sessions.measureMaxMs,
          measureMemory,
          memoryRounds: plan.sessions.memoryRounds,
          ...(plan.sessions.measuresOf ? { measures: plan.sessions.measuresOf(framework) } : {}),
          // The memory runs start their rounds at phases of the young generation's cycle spread evenly between
          // them: three runs of three rounds cover ninths (bench/README.md, "Peak rounds across the young
          // generation's cycle").
          ...(measureMemory
            ? { memoryPhase: r / (plan.sessions.memoryRuns * plan.sessions.memoryRounds) }
            : {}),
        },
        onReport: (report) => push(collected.sessions, framework, report as SessionsReport),
        timeoutMs: 300_000,
      });
    }
  }
  if (r < plan.resume.runs) {
    for (const [framework, source] of context.crashed) {
      for (const start of ['cold', 'warm'] as const) {
        const key = resumeKey(framework, start);
        jobs.push({
          key: `resume|${key}`,
          run: r,
          // Five runs of flowstack's resume rows always run in the full plan (a second each): on a slow machine
          // the budget once left the new-process row with four, against a 5 ms target it sits near on some hosts.
          essential: framework === 'flowstack' && r < plan.requiredRuns,
          job: {
            scenario: 'resume',
            framework,
            persistence: 'sqlite',
            sqlitePath: copyDatabase(source, `${framework}-${start}-r${r}`),
            threadId: 'crashed',
            warmSessions: start === 'warm' ? plan.resume.warmSessions : 0,
          },
          onReport: (report) => push(collected.resume, key, report as ResumeReport),
        });
      }
    }
  }
  return [...jobs, ...later];
}

/** One crashed thread per framework whose resume is measured; each resume run gets a copy of its files. */
async function prepareCrashedThreads(
  plan: BenchPlan,
  collected: Collected,
  log: (text: string) => void,
): Promise<Map<FrameworkId, string>> {
  const steps = plan.resume.steps;
  const crashed = new Map<FrameworkId, string>();
  for (const framework of plan.resumeFrameworks) {
    const sqlitePath = join(dbDir, `${framework}-crashed.db`);
    const job: Job = {
      scenario: 'crash',
      framework,
      persistence: 'sqlite',
      sqlitePath,
      steps,
      threadId: 'crashed',
    };
    log(describeJob(job));
    try {
      await spawnJob(job, { timeoutMs: 120_000, expectKill: true });
      crashed.set(framework, sqlitePath);
    } catch (error) {
      collected.failures.push({
        job: describeJob(job),
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return crashed;
}

function copyDatabase(source: string, name: string): string {
  const target = join(dbDir, `${name}.db`);
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(source + suffix)) copyFileSync(source + suffix, target + suffix);
  }
  return target;
}

/** CPU profiles of flowstack's step loop after warm-up (V8's profiler, as `--cpu-prof`), for the hot-spot tables. */
async function profileFlowstack(
  collected: Collected,
  log: (text: string) => void,
  postgresUrl: string,
): Promise<void> {
  const variants: { title: string; persistence: 'none' | 'sqlite'; k: number }[] = [
    { title: 'flowstack, memory store, K = 100', persistence: 'none', k: 100 },
    { title: 'flowstack, SQLite store, K = 100', persistence: 'sqlite', k: 100 },
  ];
  for (const variant of variants) {
    const profilePath = join(profileDir, `flowstack-${variant.persistence}-k${variant.k}.cpuprofile`);
    const job: Job = {
      scenario: 'steps',
      framework: 'flowstack',
      persistence: variant.persistence,
      k: variant.k,
      warmupSteps: 2_000,
      warmupMaxMs: 2_500,
      iterations: 200,
      maxMs: 4_000,
      minIterations: 5,
      measureHeap: false,
      sqlitePath: join(dbDir, `profile-${variant.persistence}.db`),
      postgresUrl,
      profilePath,
    };
    log(`profile: ${variant.title}`);
    try {
      await spawnJob(job, { timeoutMs: 120_000 });
      collected.profiles.push({ title: variant.title, ...summarizeProfile(profilePath, 20, repoDir) });
    } catch (error) {
      collected.failures.push({
        job: `profile ${variant.title}`,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

function mapReplacer(_key: string, value: unknown): unknown {
  return value instanceof Map ? Object.fromEntries(value) : value;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
