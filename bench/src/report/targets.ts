/**
 * The targets of issue 10, each checked against this run's figures. A missed target carries why it is
 * missed and what would close it, from the profiles and the code as they are now; the report prints
 * that text only when the target is missed in the run.
 */
export interface TargetResult {
  id: string;
  target: string;
  measured: string;
  met: boolean | undefined;
  /** Why it is missed, and what would close it (shown when `met` is false). */
  gap: string;
}

export const gaps = {
  quarterOfFastestPeer:
    'Per skill run, `executeFlow` builds the component tools anew (`createComponentTools` → `defineTool`: Zod schemas, ' +
    '`z.toJSONSchema`, and an Ajv compile that generates new validator code: `compileSchema`, `addNames`, ' +
    '`toJSONSchema` in the hot spots), a fixed cost of milliseconds per turn that dominates short sessions. Per ' +
    'step, `awaitWithin` aborts an `AbortController` without a reason, which builds a `DOMException` (and its stack) ' +
    'on every model and tool call, and each tool call adds an `AbortController`, a timer, a SHA-256 of its arguments ' +
    '(`stableHash`) and three journal operations; the scripted model serializes the whole prompt on every call ' +
    '(`measureJson`). To close it: define the component tools once (module level) and pass the workspace through ' +
    'the execution context; abort with a shared reason object (or skip the abort when nothing listens); one ' +
    '`AbortController` and one timer per batch; hash arguments only for non-idempotent tools; in ' +
    '`createScriptedModel`, count prompt characters only when no `inputTokens` is given.',
  flatWithThreadLength:
    'Part of the growth is the scripted model, which JSON-serializes every tool call and result in the prompt on ' +
    'every call to estimate input tokens, even when usage is given (`measurePrompt`/`measureJson`): O(K) per step, ' +
    'O(K²) per turn. The rest is the loop: the prompt is copied for every model call, repeated-call detection and ' +
    'context cleaning walk the run so far (`recordCall`, `cleanContext`), and garbage collection grows with the live ' +
    'prompt. To close it: count prompt characters only for messages added since the previous call; keep one ' +
    'append-only prompt array per run; index calls by signature once instead of rescanning.',
  sqliteVsLangGraph:
    'flowstack writes to SQLite three times per tool call (read journal, insert the start in its own ' +
    '`BEGIN IMMEDIATE` transaction, update the result), each a separate transaction with its own WAL append (the ' +
    'native `run` and `sqliteTransaction` lead the SQLite profile). To close it: journal start and result in one ' +
    'statement for calls that finish within the step, and group the journal rows of a batch in one transaction; ' +
    'keep the per-turn commit as it is (its cost is flat).',
  parallelTools:
    'When the model asks for several tools in one step, the skill loop passes them to `executeToolBatch` without a ' +
    '`parallelGroup`, so they run one after another (3 × 50 ms). `executeToolBatch` itself overlaps calls that ' +
    'share a `parallelGroup` (the batch row meets the target). To close it: let the skill loop put the calls of ' +
    'one model step in one parallel group when every tool in it is idempotent (or declares itself safe to ' +
    'overlap), keeping the sequential order for the others.',
  parallelOverhead:
    'The three calls overlap (the tool phase is the figure above); what the session adds on top is the per-turn ' +
    'fixed cost described for the first target (building the component tools on every skill run), which is the ' +
    'thing to remove.',
  sessionsThroughput:
    'Concurrent sessions pay the per-turn and per-step costs above on one core: with 5 steps per session, building ' +
    'and compiling the component tools on every skill run is the largest share. The fixes above raise throughput ' +
    'directly.',
  sessionsMemory:
    'A heap snapshot of 1,000 flowstack sessions held in a tool call shows about 90 KiB each, most of it the ' +
    'component tools built for each skill run: ~34 Zod schema instances with their internals, ~19 freshly ' +
    'generated Ajv validator functions (code objects) with their closures and contexts (~165 closures, ~160 ' +
    'contexts), plus the prompt and turn state (~80 arrays, ~220 objects, ~46 strings) and ~20 suspended async ' +
    'frames per call in flight (one per pipeline stage, since every stage does `await next(state)`). To close it: ' +
    'share one set of component tool definitions and validators across runs; run the pipeline as pre- and ' +
    'post-stages around one awaited execute; keep one prompt array per skill run.',
  resumeCold:
    'A freshly started process runs every code path for the first time (interpreted before the JIT, first use of ' +
    'the SQLite statements, first Ajv compile of the component tools): the first step after a cold start costs tens ' +
    'of milliseconds whatever the store does. In the design (DESIGN.md §7) a crashed turn is taken over by a worker ' +
    'that is already running, which is the warm row. To close the cold figure: compile the component tools once at ' +
    'module load, and warm the pipeline once when the agent is created (a dry run of the tool pipeline and of the ' +
    'store statements).',
  resumeWarm:
    "Loading the snapshot and the recent history is flat in the thread length; what remains is the first turn's " +
    'fixed cost (the component tools are built and compiled again for the resumed skill run) and the first step.',
} as const;
