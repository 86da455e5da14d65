/**
 * PEX `recover()` (seed 000): a pure function from what went wrong to the next action, tried in order
 * of escalating severity. It decides; the agent carries the action out.
 */
import type { FlowInstance, SkillOutcome } from '../spec/index.js';

export type RecoveryAction = { action: 'retry' } | { action: 'escalate'; question: string };

/** Flow-level retries of a skill before escalating (DESIGN.md §5). */
export const maxFlowRetries = 1;

export function recover(
  flow: FlowInstance,
  outcome: Extract<SkillOutcome, { outcome: 'uncertain' }>,
): RecoveryAction {
  if (flow.retries < maxFlowRetries) return { action: 'retry' };
  return { action: 'escalate', question: outcome.reason };
}
