/**
 * The reflect phase's error classifier (seed 004): a pure function from one failed tool call, and
 * what the run knows about it, to what the loop does next.
 *
 * - `continue` — transient or self-correctable: the model sees the error and fixes its call.
 * - `backtrack` — systematic: the approach will not work; clean the context and try another.
 * - `fail-gracefully` — unrecoverable and nothing else to try: end with what was achieved.
 * - `escalate` — needs a person (credentials, permission, an effect of unknown outcome).
 */
import type { ToolError } from '../spec/index.js';

export type ReflectDecisionKind = 'continue' | 'backtrack' | 'fail-gracefully' | 'escalate';

export interface ReflectDecision {
  decision: ReflectDecisionKind;
  /** One line for the reflection summary and the observation stream. */
  reason: string;
}

export interface ClassifyToolErrorInput {
  toolName: string;
  error: ToolError;
  /** The tool is among those offered to the model (false: an unknown or withdrawn name). */
  offered: boolean;
  /** Failures in a row of this tool, this one included. */
  failureStreak: number;
  /** The same call with the same arguments was repeated until it counted as a loop. */
  repeatedCall: boolean;
  /** Other offered tools that are still available (not withdrawn), excluding `finish_skill`. */
  alternatives: number;
}

/** How bad each decision is; a step with several errors takes the worst. */
export const reflectSeverity: Record<ReflectDecisionKind, number> = {
  continue: 0,
  backtrack: 1,
  'fail-gracefully': 2,
  escalate: 3,
};

/** Decides what the loop does after one failed call; pure, the rules are in docs/decisions/0006. */
export function classifyToolError(input: ClassifyToolErrorInput): ReflectDecision {
  const { error, toolName } = input;
  if (input.repeatedCall)
    return systematic(input, `'${toolName}' was called again with the same arguments: a loop`);
  if (!input.offered)
    return { decision: 'continue', reason: `'${toolName}' is not offered; another tool must be used` };
  if (error.refusedBy === 'person')
    return { decision: 'continue', reason: `a person refused '${toolName}'; the run must do without it` };
  if (error.category === 'auth_error')
    return { decision: 'escalate', reason: `'${toolName}' was refused access: a person must grant it` };
  if (/outcome_unknown/.test(error.message))
    return {
      decision: 'escalate',
      reason: `'${toolName}' may or may not have taken effect: a person must check before anything else runs`,
    };
  if (error.category === 'validation_error') {
    return input.failureStreak >= 2
      ? systematic(input, `'${toolName}' rejected its arguments ${input.failureStreak} times in a row`)
      : { decision: 'continue', reason: `'${toolName}' rejected its arguments; they can be fixed` };
  }
  if (error.retryable) {
    return input.failureStreak >= 2
      ? systematic(input, `'${toolName}' kept failing (${error.category}, ${input.failureStreak} times)`)
      : { decision: 'continue', reason: `'${toolName}' failed transiently (${error.category})` };
  }
  return systematic(input, `'${toolName}' failed in a way retrying will not fix (${error.category})`);
}

/** A systematic failure backtracks while another tool can be tried, else ends gracefully. */
function systematic(input: ClassifyToolErrorInput, reason: string): ReflectDecision {
  if (input.alternatives > 0 || input.error.category === 'validation_error' || input.repeatedCall)
    return { decision: 'backtrack', reason };
  return { decision: 'fail-gracefully', reason: `${reason}, and no other tool can do it` };
}

/** The worst of several decisions (the first one wins a tie); `continue` when there are none. */
export function worstDecision(decisions: readonly ReflectDecision[]): ReflectDecision {
  let worst: ReflectDecision | undefined;
  for (const d of decisions)
    if (!worst || reflectSeverity[d.decision] > reflectSeverity[worst.decision]) worst = d;
  return worst ?? { decision: 'continue', reason: 'no tool failed' };
}
