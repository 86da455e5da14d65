/**
 * The skill loop's control state: small, plain data that survives a JSON round trip, so a suspended run
 * (a tool waiting for a human, a long task asking to go on, a user stop) can be saved and resumed.
 * The transcript itself is kept apart, in `SkillLoopResult.messages`.
 */
import type { ToolCallResult } from '../spec/index.js';
import { type CircuitBreakerState, createCircuitBreakerState } from './circuit-breaker.js';

/** A tool call that worked, kept short for the graceful-failure summary and `partialData`. */
export interface CompletedCall {
  callId: string;
  toolName: string;
  output: unknown;
}

/** A failed approach, for the reflection summary and the graceful-failure summary. */
export interface FailedAttempt {
  toolName: string;
  category: string;
  message: string;
  /** A person said no to the call's approval, with their reason if they gave one. */
  refusal?: { reason?: string };
}

/** Failed calls kept for the summaries; older ones fall off. */
const keptFailures = 20;

/** The run's failures with these failed calls added (the newest kept). */
export function addFailures(
  failures: readonly FailedAttempt[],
  results: readonly ToolCallResult[],
): FailedAttempt[] {
  const added = results.flatMap((result): FailedAttempt[] =>
    result.status === 'error'
      ? [
          {
            toolName: result.toolName,
            category: result.error.category,
            message: result.error.message,
            ...(result.error.refusal ? { refusal: result.error.refusal } : {}),
          },
        ]
      : [],
  );
  return [...failures, ...added].slice(-keptFailures);
}

export interface SkillLoopState {
  readonly stateVersion: 1;
  /** When this invocation began, on the injected clock. */
  startedAt: number;
  /** Wall time spent in earlier invocations of the same run (time suspended does not count). */
  priorElapsedMs: number;
  /** Last model output or tool result. */
  lastActivityAt: number;
  /** Model calls in this invocation. */
  iterations: number;
  /** Model calls in the whole run, across resumes. */
  turns: number;
  /** The turn count at which the user last agreed to go on. */
  confirmedAtTurn: number;
  /** Steps in a row in which every tool call failed. */
  consecutiveFailedSteps: number;
  breaker: CircuitBreakerState;
  /** Identical-call counts by call signature (loop detection). */
  callCounts: Record<string, number>;
  /** Required-tool enforcement prompts spent. */
  enforcementRetries: number;
  /** Tools that have succeeded at least once. */
  succeededTools: string[];
  /** Where the reflection pass stands: not run, revising after one evaluation, or done. */
  reflectionPass: 'pending' | 'revising' | 'done';
  /** Output token limit in force (doubled after a truncation). */
  maxOutputTokens: number;
  completed: CompletedCall[];
  failures: FailedAttempt[];
  /** One line per backtrack: what failed and why. */
  backtrackNotes: string[];
  inputTokens: number;
  outputTokens: number;
}

/** The state of a run that has not begun. */
export function createSkillLoopState(options: { now: number; maxOutputTokens: number }): SkillLoopState {
  return {
    stateVersion: 1,
    startedAt: options.now,
    priorElapsedMs: 0,
    lastActivityAt: options.now,
    iterations: 0,
    turns: 0,
    confirmedAtTurn: 0,
    consecutiveFailedSteps: 0,
    breaker: createCircuitBreakerState(),
    callCounts: {},
    enforcementRetries: 0,
    succeededTools: [],
    reflectionPass: 'pending',
    maxOutputTokens: options.maxOutputTokens,
    completed: [],
    failures: [],
    backtrackNotes: [],
    inputTokens: 0,
    outputTokens: 0,
  };
}

/**
 * The state to resume a suspended run with: a fresh invocation (iteration count, clocks) that keeps
 * the run's totals, breaker and history. `confirmed` records that the user agreed to go on after a
 * `confirm-continue` suspension, so it is not asked again for the same turn count.
 */
export function resumeSkillLoopState(
  state: SkillLoopState,
  options: { now: number; confirmed?: boolean },
): SkillLoopState {
  return {
    ...state,
    startedAt: options.now,
    lastActivityAt: options.now,
    iterations: 0,
    confirmedAtTurn: options.confirmed ? state.turns : state.confirmedAtTurn,
  };
}

/** Closes an invocation: its wall time moves into `priorElapsedMs`, so waiting while suspended is free. */
export function closeSkillLoopState(state: SkillLoopState, now: number): SkillLoopState {
  return {
    ...state,
    priorElapsedMs: state.priorElapsedMs + Math.max(0, now - state.startedAt),
    startedAt: now,
  };
}
