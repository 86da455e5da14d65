/**
 * The appendix's tables of the five agent scenarios (per step in memory, durable, parallel tools, concurrent
 * sessions, resume), each with flowstack's figure, each peer's and the ratio.
 */
import type { FrameworkId, Persistence } from '../frameworks/framework.js';
import type { Collected } from '../orchestrate/collect.js';
import type { BenchPlan } from '../orchestrate/plan.js';
import { mockShare } from './evaluate-targets.js';
import { bytes, count, ms, ratio, spread, table, us } from './format.js';
import { labels, peers } from './labels.js';
import { mid, parallelRow, resumeRow, sessionsRow, stepsRow, turnSplit } from './summarize.js';

export function renderSteps(collected: Collected, plan: BenchPlan): string {
  const out = [
    '## 1. Per-step overhead, in memory',
    '',
    'An agent with three small tools (Zod schemas) where the model asks for K tools, one per step, then answers: ' +
      'K + 1 model calls. Per-step overhead = (wall time of the session − time inside the tools) ÷ (K + 1). ' +
      'flowstack runs its full pipeline on the memory store (routing by fast-path rule, flow stack, skill loop, ' +
      'argument parsing and validation, journal, redaction, output validation, one commit per turn); the peers run ' +
      'their bare loop. "Mock model" is the time spent inside each framework\'s own mock model, included in the ' +
      'overhead; "without the mock" subtracts it. The CPU-time figure (user + system time of the process over the ' +
      'session, less the tools) is the one compared: this machine is shared, and other processes inflate wall time ' +
      'unevenly (most for frameworks that wait on timers or the event loop between steps); with an idle machine the ' +
      'two agree. ' +
      `Each process warms up first (${count(plan.warmupSteps)} steps and ${count(plan.warmupSessions)} sessions, or ${plan.warmupMaxMs(10) / 1000} s at K = 10 and ${plan.warmupMaxMs(100) / 1000} s at K = 100, whichever ends first), then waits until its background threads are quiet (the JIT's compiles of what the warm-up made hot), so that no compile is counted in the measured CPU time.`,
    '',
  ];
  for (const k of [10, 100]) {
    const base = stepsRow(collected, 'flowstack', 'none', k);
    const rows: string[][] = [];
    for (const framework of ['flowstack', ...plan.peers.steps] as FrameworkId[]) {
      const row = stepsRow(collected, framework, 'none', k);
      if (!row) {
        rows.push([labels[framework], 'failed', '', '', '', '', '', '', '', '', '', '']);
        continue;
      }
      rows.push([
        labels[framework],
        spread(row.cpu, us),
        spread(row.overhead, us),
        us(mid(row.model)),
        us(mid(row.runtime)),
        framework === 'flowstack' || !base ? '' : ratio(mid(row.cpu) / mid(base.cpu)),
        bytes(mid(row.heapPeak)),
        bytes(mid(row.rss)),
        String(row.runs),
      ]);
    }
    out.push(
      `### K = ${k} (${k + 1} steps per session)`,
      '',
      table(
        [
          'framework',
          'per step, CPU time: median (range over runs)',
          'per step, wall time',
          'of which mock model',
          'CPU without the mock',
          'flowstack advantage (CPU)',
          'peak heap growth in one session',
          'peak RSS of the process',
          'runs',
        ],
        rows,
      ),
      '',
    );
  }
  const flatRows: string[][] = [];
  for (const framework of ['flowstack', ...peers] as FrameworkId[]) {
    const k10 = stepsRow(collected, framework, 'none', 10);
    const k100 = stepsRow(collected, framework, 'none', 100);
    if (!k10 || !k100) continue;
    flatRows.push([
      labels[framework],
      us(mid(k10.cpu)),
      us(mid(k100.cpu)),
      ratio(mid(k100.cpu) / mid(k10.cpu)),
      ratio(mid(k100.runtime) / mid(k10.runtime)),
      ratio(mid(k100.overhead) / mid(k10.overhead)),
    ]);
  }
  out.push(
    '### Growth with the thread (per-step cost at K = 100 over K = 10)',
    '',
    table(
      [
        'framework',
        'K = 10 (CPU)',
        'K = 100 (CPU)',
        'K = 100 ÷ K = 10',
        'same, without the mock',
        'same, wall time',
      ],
      flatRows,
    ),
  );
  const split = turnSplit(collected);
  if (split)
    out.push(
      '',
      `flowstack's per-step cost is flat, so its session splits along a straight line through the two sessions ` +
        `(one turn of K + 1 steps each, CPU medians): ${us(split.fixedUs)} per turn whatever its length, and ` +
        `${us(split.perStepUs)} per step. At K = 10 the per-turn part is ${Math.round(split.shareAtK10 * 100)} % ` +
        `of the session, which is why K = 10 is further from the first target than K = 100.`,
    );
  return out.join('\n');
}

export function renderDurable(collected: Collected): string {
  const variants: { framework: FrameworkId; persistence: Persistence; label: string }[] = [
    { framework: 'flowstack', persistence: 'sqlite', label: 'flowstack, SQLite store' },
    { framework: 'langgraph', persistence: 'sqlite', label: 'LangGraph.js, `SqliteSaver`' },
    {
      framework: 'flowstack',
      persistence: 'sqlite-full',
      label: 'flowstack, SQLite store, `synchronous: "full"`',
    },
    { framework: 'flowstack', persistence: 'postgres', label: 'flowstack, PostgreSQL store' },
    { framework: 'langgraph', persistence: 'postgres', label: 'LangGraph.js, `PostgresSaver`' },
  ];
  const out = [
    '## 2. Durable persistence after every step',
    '',
    'The same scenario with a durable store: each framework writes after every step, its own way. flowstack journals ' +
      'every tool call (start and result) and commits the thread once per turn; LangGraph saves a checkpoint (the ' +
      'whole state) after every super-step (two per step: the model node and the tools node). Each process writes ' +
      'to a new SQLite file; PostgreSQL is the local server, and each process writes to a schema of its own, which the bench drops at the end of the run. Wall time is compared here, since waiting for the disk ' +
      'or the database server is part of the cost. The advantage column compares like with like (flowstack SQLite ' +
      'with LangGraph SQLite, PostgreSQL with PostgreSQL).',
    '',
  ];
  const rows: string[][] = [];
  for (const k of [10, 100]) {
    for (const v of variants) {
      const row = stepsRow(collected, v.framework, v.persistence, k);
      if (!row) continue;
      const backend = v.persistence === 'postgres' ? 'postgres' : 'sqlite';
      const flow = stepsRow(collected, 'flowstack', backend, k);
      const advantage =
        v.framework === 'langgraph' && flow ? ratio(mid(row.overhead) / mid(flow.overhead)) : '';
      rows.push([
        String(k),
        v.label,
        spread(row.overhead, us),
        us(mid(row.cpu)),
        advantage,
        bytes(mid(row.heapPeak)),
        String(row.runs),
        row.persistence,
      ]);
    }
  }
  out.push(
    table(
      [
        'K',
        'framework and store',
        'per step, wall time: median (range)',
        'per step, CPU time',
        'flowstack advantage (wall)',
        'peak heap growth',
        'runs',
        'what is written',
      ],
      rows,
    ),
  );
  return out.join('\n');
}

export function renderParallel(collected: Collected): string {
  const rows: string[][] = [];
  const variants: {
    framework: FrameworkId;
    via: 'agent' | 'batch-parallel-group' | 'batch-sequential';
    label: string;
  }[] = [
    {
      framework: 'flowstack',
      via: 'agent',
      label: 'flowstack agent (the model asks for the three calls in one step)',
    },
    {
      framework: 'flowstack',
      via: 'batch-parallel-group',
      label: 'flowstack `executeToolBatch`, one `parallelGroup`',
    },
    { framework: 'flowstack', via: 'batch-sequential', label: 'flowstack `executeToolBatch`, no group' },
    ...peers.map((framework) => ({ framework, via: 'agent' as const, label: labels[framework] })),
  ];
  const flow = parallelRow(collected, 'flowstack', 'agent');
  for (const v of variants) {
    const row = parallelRow(collected, v.framework, v.via);
    if (!row) continue;
    const wall = mid(row.wall);
    const isPeer = v.via === 'agent' && v.framework !== 'flowstack';
    rows.push([
      v.label,
      spread(row.wall, ms),
      ratio(wall / 50),
      spread(row.toolPhase, ms),
      row.concurrency >= 3
        ? 'all 3 at once'
        : row.concurrency === 1
          ? 'none (one after another)'
          : `at most ${row.concurrency} at once`,
      isPeer && flow ? ratio(wall / mid(flow.wall)) : '',
    ]);
  }
  return [
    '## 3. Three 50 ms tools asked for in one step',
    '',
    'The model asks for three tools in one step, each taking 50 ms, then answers. The agent rows time the whole ' +
      'session (both model steps); the `executeToolBatch` rows time the batch alone. "Tool phase" (what the target ' +
      'is about) runs from the first ' +
      'call\'s start to the last call\'s end; "overlap" is the most calls seen running at once (the worst run).',
    '',
    table(
      [
        'framework / path',
        'wall time: median (range)',
        '÷ 50 ms',
        'tool phase',
        'overlap',
        'flowstack advantage (agent)',
      ],
      rows,
    ),
  ].join('\n');
}

export function renderSessions(collected: Collected, plan: BenchPlan): string {
  const base = sessionsRow(collected, 'flowstack');
  const rows: string[][] = [];
  for (const framework of ['flowstack', ...plan.peers.sessions] as FrameworkId[]) {
    const row = sessionsRow(collected, framework);
    if (!row) {
      rows.push([labels[framework], 'failed', '', '', '', '', '', '', '']);
      continue;
    }
    const isBase = framework === 'flowstack' || !base;
    rows.push([
      labels[framework],
      spread(row.stepsPerCpuSecond, count),
      spread(row.stepsPerSecond, count),
      isBase ? '' : ratio(mid(base.stepsPerCpuSecond) / mid(row.stepsPerCpuSecond)),
      spread(row.firstRoundStepsPerCpuSecond, count),
      isBase ? '' : ratio(mid(base.firstRoundStepsPerCpuSecond) / mid(row.firstRoundStepsPerCpuSecond)),
      `${roundsText(row.warmupRounds)} + ${roundsText(row.measuredRounds)}`,
      spread(row.peakHeapPerSession, bytes),
      isBase ? '' : ratio(mid(row.peakHeapPerSession) / mid(base.peakHeapPerSession)),
      spread(row.heapPerSession, bytes),
      isBase ? '' : ratio(mid(row.heapPerSession) / mid(base.heapPerSession)),
      bytes(mid(row.rss)),
    ]);
  }
  return [
    `## 4. ${count(plan.sessions.count)} concurrent sessions of ${plan.sessions.steps} steps`,
    '',
    `${count(plan.sessions.count)} sessions (each ${plan.sessions.steps - 1} tool steps and an answer) are started at once on one agent, in memory. ` +
      `Each process first runs warm-up rounds of the same size — up to ${plan.sessions.warmupRounds}, none more once ${plan.sessions.warmupMaxMs / 1000} s have passed — then measures up to ${plan.sessions.rounds} rounds (none more after ${plan.sessions.measureMaxMs / 1000} s) and takes their median: ` +
      'the first rounds of so many concurrent sessions also grow the heap and its young generation while the JIT is still at work, and every framework ' +
      'gained from round to round until about the fourth (flowstack until about its sixth; bench/README.md, "Sessions warm up to steady state"), so a framework whose round takes a second is measured near its steady state, and one whose round ' +
      'takes many seconds after one warm-up round (the "rounds" column says how many ran). The first round of each process is shown beside it for comparison. ' +
      'Steps per second = model calls completed ÷ time, by the CPU time of the process (compared) and by wall time. ' +
      'Rounds run back to back, without a forced garbage collection before each (a full, memory-reducing collection that a server under load never runs; the rounds after one ran 1.5–2× slower for every framework; bench/README.md, "Rounds without a forced collection"). ' +
      `Memory per in-flight session, two ways, measured in the first ${plan.sessions.memoryRuns === 1 ? 'run' : `${plan.sessions.memoryRuns} runs`} (bench/README.md, "Memory per session as the peak heap" and "Memory from every sessions run"). ` +
      `Peak heap per session (the target's measure): up to ${plan.sessions.memoryRounds} more rounds (none more after ${plan.sessions.measureMaxMs / 1000} s), each begun after a full collection and at its own point of the young generation's cycle (short-lived objects fill a share of it first, spread evenly over the rounds of all runs; bench/README.md, "Peak rounds across the young generation's cycle"), with the heap ` +
      "sampled at every tool and model call; the highest heap seen over the heap at the round's start, divided by the " +
      'number of sessions — what a process needs to hold them all at once, the garbage they make before the collector ' +
      'takes it back included (the figure is the median of all the rounds, the range over them). Held heap per session: one more round holds every ' +
      'session inside its third tool call; when all are there, the heap is collected, and the heap over the heap ' +
      "before the round is divided by the number of sessions — what the sessions themselves keep alive. The mocks' " +
      'call logs are dropped at every sample and at the gate.',
    '',
    table(
      [
        'framework',
        'steps per CPU second: median (range)',
        'steps per wall second',
        'flowstack advantage (CPU)',
        'first round of the process: steps per CPU second',
        'flowstack advantage (first round)',
        'rounds: warm-up + measured',
        'peak heap per in-flight session',
        'flowstack advantage',
        'held heap per in-flight session',
        'flowstack advantage',
        'peak RSS',
      ],
      rows,
    ),
  ].join('\n');
}

/** "3" when every process ran the same number of rounds, else the range ("1–3"). */
function roundsText(rounds: number[]): string {
  if (rounds.length === 0) return '?';
  const low = Math.min(...rounds);
  const high = Math.max(...rounds);
  return low === high ? String(low) : `${low}–${high}`;
}

export function renderResume(collected: Collected, plan: BenchPlan): string {
  const rows: string[][] = [];
  for (const start of ['warm', 'cold'] as const) {
    const flow = resumeRow(collected, 'flowstack', start);
    for (const framework of ['flowstack', 'langgraph'] as FrameworkId[]) {
      const row = resumeRow(collected, framework, start);
      if (!row) continue;
      rows.push([
        labels[framework],
        start === 'warm'
          ? `worker already running (${plan.resume.warmSessions} sessions on other threads first)`
          : 'new process, first code run',
        spread(row.firstStep, ms),
        mockShare(row.firstStepModel),
        spread(row.total, ms),
        framework === 'langgraph' && flow ? ratio(mid(row.firstStep) / mid(flow.firstStep)) : '',
        String(row.firstStep.length),
      ]);
    }
  }
  return [
    `## 5. Resuming a ${plan.resume.steps}-step thread after a crash (SQLite)`,
    '',
    `A process builds a thread of ${plan.resume.steps} tool steps in a SQLite file, then kills itself (SIGKILL) inside ` +
      'the tool of the next step. A new process opens the same file (opening and building the agent happen before ' +
      "the clock starts) and resumes the thread its framework's way; the figure is the time from the resume call to " +
      "the start of the first new tool call. Building flowstack's agent includes `await agent.warmUp()`, as " +
      '`flowstack serve` and `flowstack worker` do when they start: a dry run of the turn loop on a memory store of ' +
      'its own, once per process (docs/decisions/0032); the new-process rows are therefore a worker that has just ' +
      'started, not one that has run no code at all. ' +
      'flowstack commits a thread per turn, so its thread is 10 turns of 5 ' +
      "tool steps and the crash hits the next turn, whose request is delivered again under its `requestId` (after the crashed worker's lease, 200 ms " +
      'here, has expired; the default lease is 5 minutes), as its turn queue or an HTTP retry redelivers it: the ' +
      'interrupted turn goes on under its turn id, its journaled model answer replayed and the cut-off call run ' +
      'again (docs/decisions/0017; bench/README.md, "Resume by request id"). ' +
      "LangGraph's thread is one run of 50 steps, resumed with " +
      '`invoke(null)` from its last checkpoint, which runs the pending tool node. Neither asks the model before ' +
      'its first new step. "Of which mock model" is the part of the first step spent inside ' +
      "the framework's mock model (in a new process its code runs for the first time as well); the target is checked " +
      'against the whole figure.',
    '',
    table(
      [
        'framework',
        'resuming process',
        'to the first new step: median (range)',
        'of which mock model',
        'whole resumed run',
        'flowstack advantage',
        'runs',
      ],
      rows,
    ),
  ].join('\n');
}
