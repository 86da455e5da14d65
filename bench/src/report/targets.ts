/**
 * The bench's targets (`docs/benchmarks.md`), each checked against this run's figures. A missed target carries why it is
 * missed and what would close it, from the profiles and the code as they are now; the report prints
 * that text when the target is missed in the run, and when it is met by less than a tenth of the way to its line.
 */
export interface TargetResult {
  id: string;
  target: string;
  measured: string;
  /** The summary's short figures: flowstack's, the peer's (or the line's, for a target without a peer), the ratio. */
  summary: { flowstack: string; peer: string; ratio: string };
  met: boolean | undefined;
  /** Why it is missed, and what would close it (shown when `met` is false, or when the margin is thin). */
  gap: string;
  /**
   * How far the figure is from the target's line, as a share of the line (of the allowance over 50 ms for the
   * parallel tools): positive on the met side (0.04 for a ratio of 0.48 against a line of 0.5), negative on the
   * missed side; `undefined` when not measured.
   */
  margin?: number;
}

export const gaps = {
  quarterOfFastestPeer:
    "What is left is work the peers' bare loops do not do at all. Per step: the model's answer is journaled before " +
    'it is used (docs/decisions/0027); the tool call passes the whole pipeline (arguments parsed and validated ' +
    'against JSON Schema, a journal row with a SHA-256 of the arguments, redaction, output validation, the ' +
    'timeout); the step becomes two history rows and two observations. Per turn: the thread is leased, loaded and ' +
    'saved twice (its in-flight record, docs/decisions/0017, and its result). On one Intel Xeon host (2026-11-28, ' +
    'this job, single processes) the last build before the redesign of issue 29 (336b7c1) read 31.9 µs a step ' +
    "against the AI SDK's 153 µs (0.21×), and the redesigned build 50.7–52.5 µs. Most of the difference was in two " +
    'places: records copied with a spread followed by new keys, each of which gets a hidden class of its own on ' +
    "Node 20 (29 per warm session, `probes/maps-per-session.mjs`; 2.9 since docs/decisions/0064's amendment), and " +
    'promises between a deadline race and its work. Without them a step reads 39.7–43.3 µs (0.26–0.27× of the AI ' +
    "SDK's 149–160 µs in the same hour). A CPU profile has no hot spot: about a seventh of the step is making the " +
    "texts the store keeps (observations, history rows, the answer's and the result's journal rows, the snapshot), " +
    "a twentieth garbage collection. The verdict counts each framework's mock model in its figure; the first row " +
    'gives the ratio without the mocks too. Per turn (a profile at K = 1 on a 2-core AMD EPYC host, 2026-11-28): ' +
    "the commit's texts (observations, history rows, snapshot) about a tenth of the turn, deleting the thread " +
    '(its id hashed for its file-snapshot folder, which is looked for on disk) a twentieth, opening the turn a ' +
    'twentieth. To close it with margin: the model answer written with the rows of ' +
    'the calls it leads to (one journal write and one serialization per step fewer); the tool arguments parsed ' +
    "once per call (the loop, the pipeline and the history row each parse them now); a model call's telemetry " +
    'record made only when a span records or someone listens.',
  flatWithThreadLength:
    "flowstack's own work per step does not grow with the thread: a profile of K = 10 against K = 100 finds no " +
    'flowstack function whose time per step grows, apart from copying the prompt for each model call, and in a quiet ' +
    'process K = 100 costs what K = 10 does (medians of 23–26 µs per step against 25–26 µs, ten processes each on ' +
    'one host). What moves the K = 100 row is garbage collection landing in some sessions and not others: within one ' +
    'process, sessions cost either about 24 µs per step or 50–190 µs (those in which an old-generation collection ' +
    'lands), and the median follows the share of the second kind, which changes from process to process (the range ' +
    "of the row). The memory store keeps every row of every session in the process's heap (about 15 KiB per finished " +
    'five-step thread, far more for a 100-step one), so its old generation grows through the run and its collections ' +
    'with it; the peers keep nothing. The SQLite rows of section 2, whose rows live outside the heap, show the ' +
    'growth without the store. To close it: a memory store that keeps each finished row as one text (fewer objects ' +
    'for the collector to mark), fewer bytes allocated per step, and one append-only prompt array per run handed ' +
    'to the model as a read-only view instead of a copy.',
  sqliteVsLangGraph:
    'flowstack writes to SQLite twice per step, each its own WAL append: the model answer (one row; ' +
    'docs/decisions/0027) and the tool call (one row with its result for an idempotent tool, docs/decisions/0046; a ' +
    'non-idempotent one is started before it runs, as invariant 5 requires, and finished after). To close it: write ' +
    "the step's answer and results in one transaction; keep the per-turn commit as it is (its cost is flat).",
  parallelTools:
    'When the model asks for several tools in one step, the skill loop passes them to `executeToolBatch` without a ' +
    '`parallelGroup`, so they run one after another (3 × 50 ms). `executeToolBatch` itself overlaps calls that ' +
    'share a `parallelGroup` (the batch row meets the target). To close it: let the skill loop put the calls of ' +
    'one model step in one parallel group when every tool in it is idempotent (or declares itself safe to ' +
    'overlap), keeping the sequential order for the others.',
  parallelOverhead:
    'The three calls overlap (the tool phase is the figure above); what the session adds on top is the per-turn ' +
    'fixed cost described for the first target.',
  sessionsThroughput:
    'Each session is one turn of 5 steps, interleaved with 999 others, so almost everything a session holds ' +
    'across an `await` outlives a scavenge: in this job a quarter of the CPU goes to scavenges, which copy what ' +
    "survives them (on a 2-core AMD EPYC host on 2026-11-28, `--trace-gc-nvp` over one process's 40,000 steps: " +
    '161 scavenges, 1,095 ms, 1,013 MB copied, about 25 KB a step; 1,337 ms and 1,215 MB before ' +
    'docs/decisions/0091). The throughput therefore follows what a step keeps across its awaits (next target), ' +
    'and the per-turn fixed cost of the first target weighs about as much as one step. flowstack reaches its ' +
    'steady figure later than the peers (bench/README.md, "Sessions warm up to steady state"), and its rounds ' +
    'move by 10–30 % with where the scavenges land. To close it with margin: fewer objects kept across the awaits ' +
    "of a step (the step's and the tool call's suspended async functions, the model's generate result held " +
    'until its answer is journaled), and the per-turn cost below.',
  sessionsMemory:
    'The peak heap of a round is what the sessions keep plus what they made that outlived a scavenge and waits in ' +
    'the old generation; with 1,000 sessions interleaved, nearly everything a turn keeps across an `await` gets ' +
    'there. The rounds run over a ballast, so that no full collection cuts them short (bench/README.md, "Peak ' +
    'rounds that no full collection cuts short"). On a 2-core AMD EPYC host (2026-11-28) 72 KiB a session ' +
    'outlives a scavenge (`node --expose-gc probes/promoted-per-session.mjs`; 80–87 KiB before ' +
    'docs/decisions/0091, 48.5 KiB for the last build before the redesign of issue 29). A session in its fourth ' +
    'tool call holds 40 KiB (`probes/heap-in-flight.mjs`): 141 objects, 65 closures, 19 suspended async ' +
    'functions with 28 promises. The largest parts of what outlives a scavenge: the journal rows of the model ' +
    "answers (about 5 KiB a session), the turn's saved texts (observations, history rows and snapshot, about " +
    '8 KiB, kept by the memory store until the bench deletes the thread), the history rows and observations made ' +
    "from the run's events (4 KiB). To go further: the model's answer journaled with the rows of the calls it " +
    "leads to, and the run's events written to the turn as they happen instead of after the run.",
  resumeCold:
    'A freshly started process runs every code path for the first time: each function is parsed and run by the ' +
    'interpreter before the JIT has seen it. The worker warms up before it takes work (`agent.warmUp()`, ' +
    'docs/decisions/0032 and 0041: rounds of fresh, loaded, replayed and closed turns on a memory store of its own, ' +
    "up to 16 rounds or 150 ms), so what runs cold is mostly outside flowstack's JavaScript: the redelivered turn " +
    'makes five calls on a SQLite connection opened moments before (take the lease, load the thread, read its ' +
    'recent history, save the attempt, read the journal of the interrupted call), about 2 ms of the first step on a ' +
    'slow 2-core host (timed one by one on 2026-11-26), where a warm worker takes well under 1 ms for them. To close ' +
    "it: Node's compile cache (Node ≥ 22.1, `module.enableCompileCache`) or a V8 start-up snapshot of the loaded " +
    "agent, and a store that reads the interrupted turn's journal rows in one query. Not the cause: a dry run on an " +
    'in-memory SQLite store instead of the memory store left the figure where it was (twelve interleaved ' +
    'new-process pairs on 2026-11-26: medians 3.44 against 3.32 ms); reading every table once at open did not move ' +
    'it either. The figure follows the machine: the same code measured 3.7–5.4 ms on a 2-core AMD EPYC host on which ' +
    'every framework ran about 2.7× slower than on the fastest host seen.',
  installSize:
    "What a user downloads is flowstack's own files and every package its `dependencies` (and its non-optional " +
    "peers, which npm installs too) pull in; the appendix lists the size and package count beside each peer's, and " +
    'any package whose install would run a script. To close it: heavy or native parts as optional peers loaded on ' +
    'first use, with an "install X to use Y" error (the SQLite driver, the SQL parser, the A2A and MCP SDKs, cron), ' +
    'and no dependency that no shipped code imports.',
  coldImport:
    "The import's time and memory follow the module files it loads (section 6 of the appendix counts them beside each peer's): " +
    'everything the root entry imports at the top is loaded before the first line of user code runs. To close it: ' +
    'the parts a user may never touch (storage drivers, the SQL guardrail, A2A, MCP, the scheduler, the server) ' +
    'loaded on first use or kept under their own subpath.',
  resumeWarm:
    "Reading what the crashed turn left is flat in the thread's length (the journal of that turn only, by key; " +
    'docs/decisions/0025), as are the snapshot and the recent history, and the attempt is saved in one commit. ' +
    "The worker's dry run at start (docs/decisions/0032) runs the takeover and replay paths once, and the snapshot " +
    'parsers are built on a sample that holds every kind of value, so little runs for the first time; a CPU profile ' +
    'of the resumed turn is flat, with the snapshot checks (decode and encode of the 7.5 KB snapshot, about a ' +
    "millisecond together on a slow machine) and SQLite's reads and writes the largest parts. The figure moves with " +
    "the machine's speed more than any other here. To close it with margin: the per-turn items of the first target " +
    '(one snapshot save per turn).',
} as const;
