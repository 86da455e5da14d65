/**
 * The one table of defaults (DESIGN.md §5, invariant 9): every bound of flowstack is declared here and
 * nowhere else; the layers read their part (`defaultSkillLoopLimits`, `defaultAgentLimits`, …are this
 * table's rows). Where each is set is in `bounds-spec.ts`; why, in docs/decisions/0053-one-table-of-bounds.md.
 * The tool pipeline's own defaults (timeouts, tool retries, concurrency, rate limits) are `toolDefaults`.
 */
import type { DefaultBounds } from './bounds-spec.js';

export const defaultBounds: DefaultBounds = {
  limits: {
    maxInputChars: 32_000,
    maxStackDepth: 8,
    maxFlowsPerTurn: 8,
    maxToolResultChars: 1_500,
    recentMessages: 6,
    leaseTtlMs: 30_000,
    maxTurnAttempts: 3,
    maxScratchpadEntries: 64,
    maxBackgroundFlows: 8,
  },
  // Simple tasks stop sooner and tolerate fewer failures (seed 004 adaptive termination).
  skillLoop: {
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
  },
  execution: { maxStepOutputChars: 60_000, delegation: false },
  plan: { maxItems: 20, maxRounds: 3, latsMinItems: 4, latsCandidates: 3 },
  a2a: { pollIntervalMs: 1_000, timeoutMs: 5 * 60_000 },
  fixed: { flowRetries: 1, framePageRows: 512 },
};
