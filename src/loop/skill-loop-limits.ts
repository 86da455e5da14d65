/**
 * Every bound of the skill loop, declared once (DESIGN.md §5, invariant 9). Thresholds differ for
 * `simple` and `complex` tasks (seed 004 adaptive termination); each can be overridden per call >
 * thread > agent with `resolveSkillLoopLimits`. `src/agent/default-limits.ts` reads its skill
 * iteration bounds from here.
 */

/** How demanding a task is; decides which column of the defaults applies. */
export type TaskComplexity = 'simple' | 'complex';

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
  /** Level 1 breaker: tool errors in a row that force a reflection turn (tools withheld). */
  errorsBeforeReflection: number;
  /** Level 2 breaker: backtracks that end the run with a graceful failure. */
  maxBacktracks: number;
  /** Failures in a row of one tool that withdraw it from the offered set. */
  toolFailuresBeforeWithdrawal: number;
  /** Identical calls (same tool, same arguments) in one run that count as a loop; the last is not run. */
  repeatedCallLimit: number;
  /** Required-tool enforcement prompts (seed 002 TAEF) before the answer is taken with validation failed. */
  enforcementRetries: number;
  /** Retries of a model call that failed with a rate limit, timeout or server error. */
  modelRetries: number;
  /** First backoff before a model retry; doubles each time up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Output token limit of a model call; a truncated answer is retried once with twice as many. */
  maxOutputTokens: number;
  /** Retries of one step whose output was cut off by the length limit. */
  truncationRetries: number;
  /** Retries of one step whose output could not be parsed, each with a hint. */
  unparseableRetries: number;
  /** Characters an error result keeps in context after a backtrack. */
  cleanedErrorChars: number;
}

/** The defaults, by task complexity. Simple tasks stop sooner and tolerate fewer failures. */
export const defaultSkillLoopLimits: Readonly<Record<TaskComplexity, Readonly<SkillLoopLimits>>> = {
  simple: {
    maxIterations: 5,
    maxTurns: 30,
    maxWallMs: 5 * 60_000,
    maxIdleMs: 2 * 60_000,
    confirmEveryTurns: 20,
    maxConsecutiveFailures: 5,
    errorsBeforeReflection: 3,
    maxBacktracks: 5,
    toolFailuresBeforeWithdrawal: 3,
    repeatedCallLimit: 3,
    enforcementRetries: 2,
    modelRetries: 2,
    backoffMs: 1_000,
    maxBackoffMs: 30_000,
    maxOutputTokens: 4_096,
    truncationRetries: 1,
    unparseableRetries: 1,
    cleanedErrorChars: 160,
  },
  complex: {
    maxIterations: 20,
    maxTurns: 100,
    maxWallMs: 30 * 60_000,
    maxIdleMs: 2 * 60_000,
    confirmEveryTurns: 20,
    maxConsecutiveFailures: 8,
    errorsBeforeReflection: 3,
    maxBacktracks: 5,
    toolFailuresBeforeWithdrawal: 3,
    repeatedCallLimit: 3,
    enforcementRetries: 2,
    modelRetries: 2,
    backoffMs: 1_000,
    maxBackoffMs: 30_000,
    maxOutputTokens: 8_192,
    truncationRetries: 1,
    unparseableRetries: 1,
    cleanedErrorChars: 160,
  },
};

export interface ResolveSkillLoopLimitsOptions {
  complexity?: TaskComplexity;
  /** Overrides set on the agent. */
  agent?: Partial<SkillLoopLimits>;
  /** Overrides stored with the thread. */
  thread?: Partial<SkillLoopLimits>;
  /** Overrides for this one call; they win. */
  call?: Partial<SkillLoopLimits>;
}

/**
 * The limits in force: the defaults for the task's complexity, then agent, thread and call overrides,
 * later ones winning. An override that is not a non-negative number is ignored.
 *
 * @example
 * resolveSkillLoopLimits({ complexity: 'complex', agent: { maxTurns: 50 }, call: { maxIterations: 8 } });
 */
export function resolveSkillLoopLimits(options: ResolveSkillLoopLimitsOptions = {}): SkillLoopLimits {
  const limits: SkillLoopLimits = { ...defaultSkillLoopLimits[options.complexity ?? 'simple'] };
  for (const layer of [options.agent, options.thread, options.call]) {
    if (!layer) continue;
    for (const key of Object.keys(limits) as (keyof SkillLoopLimits)[]) {
      const value = layer[key];
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0) limits[key] = value;
    }
  }
  return limits;
}
