/**
 * PEX `recover()` (seed 000): a pure function from what went wrong to the next action, tried in order
 * of escalating severity — retry once, push an Internal flow to gather context, re-route through
 * `contemplate` (a simpler fallback flow or a plan), escalate to the user. It decides; the agent
 * carries the action out and records the step on the flow, so each step is tried once.
 */
import { defaultBounds, type FlowInstance, type FlowSpec, type PendingQuestion } from '../spec/index.js';
import { declareAmbiguity } from './ambiguity-handler.js';

/** Flow-level retries of a skill before escalating: the one table's (`defaultBounds`, DESIGN.md §5). */
export const maxFlowRetries = defaultBounds.fixed.flowRetries;

export type RecoveryReason = { kind: 'uncertain'; reason: string } | { kind: 'verify'; problems: string[] };

export type RecoveryAction =
  | { action: 'retry'; guidance: string }
  | { action: 'gather-context'; flow: string }
  | { action: 'contemplate'; exclude: string; preferred?: string }
  | { action: 'escalate'; question: PendingQuestion };

export function recover(options: {
  flow: FlowInstance;
  spec: FlowSpec;
  reason: RecoveryReason;
  /** Whether recovery may re-route (false once contemplate found nothing). */
  canContemplate?: boolean;
}): RecoveryAction {
  const { flow, spec, reason } = options;
  const spent = new Set(flow.recovery ?? []);
  const why =
    reason.kind === 'uncertain'
      ? reason.reason
      : `the result failed verification: ${reason.problems.join(' ')}`;
  if (flow.retries < maxFlowRetries)
    return {
      action: 'retry',
      guidance: `A previous attempt could not finish (${why}). Check the scratchpad and try again.`,
    };
  if (spec.gatherContext && !spent.has('gather-context'))
    return { action: 'gather-context', flow: spec.gatherContext };
  if (!spent.has('contemplate') && options.canContemplate !== false)
    return {
      action: 'contemplate',
      exclude: spec.name,
      ...(spec.fallback ? { preferred: spec.fallback } : {}),
    };
  const question =
    reason.kind === 'uncertain'
      ? reason.reason
      : `I could not complete "${spec.description.replace(/\.$/, '')}" reliably. Could you rephrase or give me more detail?`;
  return { action: 'escalate', question: declareAmbiguity({ level: 'general', flow, reason: question }) };
}
