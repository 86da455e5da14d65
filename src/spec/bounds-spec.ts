/**
 * The bounds an agent runs within (DESIGN.md §5, invariant 9) and the options that set them. Their defaults
 * are declared once, in `default-bounds.ts`. Two option bags carry them: `limits` (the turn's bounds, set
 * per agent) and `execution` (a run's bounds, set per agent, per thread and per call, the call winning).
 */

/** How demanding a task is; decides which column of the skill loop's bounds applies. */
export type TaskComplexity = 'simple' | 'complex';

/** The turn's bounds: `createAgent({ limits })`. */
export interface AgentLimits {
  /** Characters of one message; a longer one is an `InputError`. */
  maxInputChars: number;
  /** Flows on a thread's stack; a push past it is a `StackDepthError` (DESIGN.md invariant 1). */
  maxStackDepth: number;
  /** Flows (and plan items) executed in one turn before the turn ends and reports progress. */
  maxFlowsPerTurn: number;
  /** Characters of one tool result that enter the model context (head + tail; the full result is stored). */
  maxToolResultChars: number;
  /** Conversation messages given to the router and skills. */
  recentMessages: number;
  /**
   * How long a thread's lease lasts without renewal; a running turn renews it every third of this, so a
   * process that died frees its threads within this time.
   */
  leaseTtlMs: number;
  /** Times an interrupted turn is started again before it is given up (with its unknown outcomes listed). */
  maxTurnAttempts: number;
  /**
   * How long an approval request can be answered (DESIGN.md §5: 60 s for interactive use); unset, it
   * waits as long as the thread lives (queued work). An expired request counts as refused.
   */
  approvalTtlMs?: number;
  /** Scratchpad snippets kept per thread (least recently used evicted). */
  maxScratchpadEntries: number;
  /** Internal flows started in the background in one turn. */
  maxBackgroundFlows: number;
}

/** The skill loop's bounds (seed 004): one column per task complexity. */
export interface SkillLoopLimits {
  /** Model calls in one invocation of the loop (per flow or todo item); then `loop_limit`. */
  maxIterations: number;
  /** Model calls over the whole run, across resumes; then `loop_limit`. */
  maxTurns: number;
  /** Wall-clock time of the run, on the injected clock; then `time_limit`. */
  maxWallMs: number;
  /** Time without any model output or tool result; then `time_limit`. */
  maxIdleMs: number;
  /** Every this many turns the run suspends to ask whether to go on (`confirm-continue`); 0 never. */
  confirmEveryTurns: number;
  /** Steps in a row in which every tool call failed; then a graceful failure. */
  maxConsecutiveFailures: number;
  /** Level 1 breaker: tool errors in a row that force a reflection turn (tools withheld); 0 off. */
  errorsBeforeReflection: number;
  /** Level 2 breaker: backtracks that end the run with a graceful failure; 0 off. */
  maxBacktracks: number;
  /** Failures in a row of one tool that withdraw it from the offered set; 0 never. */
  toolFailuresBeforeWithdrawal: number;
  /** Identical calls (same tool, same arguments) in one run that count as a loop; the last is not run. */
  repeatedCallLimit: number;
  /** Required-tool enforcement prompts (seed 002 TAEF) before the answer is taken with validation failed. */
  enforcementRetries: number;
  /** Retries of a model call that failed with a rate limit, timeout or server error. */
  modelRetries: number;
  /**
   * First backoff before a model retry; doubles each time up to `maxBackoffMs`. Each wait is jittered:
   * a random share of up to half of it is taken off (`backoffDelayMs`), so it lies in (wait / 2, wait].
   */
  backoffMs: number;
  maxBackoffMs: number;
  /** Output token limit of a model call; a truncated answer is retried with twice as many. */
  maxOutputTokens: number;
  /** Retries of one step whose output was cut off by the length limit. */
  truncationRetries: number;
  /** Retries of one step whose output could not be parsed (or was empty), each with a hint. */
  unparseableRetries: number;
  /** Characters an error result keeps in context after a backtrack. */
  cleanedErrorChars: number;
}

/**
 * A layer's execution settings (seed 002 `ExecutionConfig`): `createAgent({ execution })`,
 * `agent.send({ threadExecution })` (saved with the thread) and `agent.send({ execution })`. A bound of the
 * skill loop given here applies to both columns; under `simple` or `complex` to that column only. They
 * apply to every skill run of the turn: user-facing flows, plan items and background flows alike.
 *
 * @example
 * agent.send({ threadId, text, execution: { maxIterations: 8, complex: { maxIterations: 30 } } });
 */
export interface ExecutionOptions extends Partial<SkillLoopLimits> {
  simple?: Partial<SkillLoopLimits>;
  complex?: Partial<SkillLoopLimits>;
  /** Characters of one plan step's output kept in the step output table for later steps and synthesis. */
  maxStepOutputChars?: number;
  /** Whether plan items may call `delegate_to_agent` (A2A). */
  delegation?: boolean;
}

/** The execution settings in force for one turn: defaults, then agent, thread and call, the call winning. */
export interface ExecutionConfig {
  /** The skill loop's bounds for a flow or plan item of each complexity. */
  skillLoop: Readonly<Record<TaskComplexity, Readonly<SkillLoopLimits>>>;
  maxStepOutputChars: number;
  delegation: boolean;
}

/** The shape of the one table of defaults (`defaultBounds`). */
export interface DefaultBounds {
  /** `createAgent({ limits })`. `approvalTtlMs` has no default: unset, an approval waits. */
  limits: Readonly<Omit<AgentLimits, 'approvalTtlMs'>>;
  /** `execution` (every layer): the skill loop, per complexity. */
  skillLoop: Readonly<Record<TaskComplexity, Readonly<SkillLoopLimits>>>;
  /** `execution` (every layer): how plan items run. */
  execution: Readonly<{ maxStepOutputChars: number; delegation: boolean }>;
  /** `createAgent({ plan })`: the plan loop's bounds. */
  plan: Readonly<{ maxItems: number; maxRounds: number; latsMinItems: number; latsCandidates: 2 | 3 }>;
  /** `createAgent({ a2a: { limits } })`: one delegation to a remote agent. */
  a2a: Readonly<{ pollIntervalMs: number; timeoutMs: number }>;
  /** Fixed by the runtime: no agent option changes them. */
  fixed: Readonly<{ flowRetries: number; framePageRows: number }>;
}
