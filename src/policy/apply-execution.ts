/**
 * What a flow's outcome does, decided in one place for a user-facing flow and a plan item alike: a pure
 * function from the execution (`executeFlow`'s result) to the dialogue state to save and the effects to
 * carry out. The two callers (`src/policy/run/run-flow.ts`, `src/plan/loop/run-plan-item.ts`) only carry
 * the effects out: a flow replies to the user and routes its own recovery; an item settles into the plan.
 */
import {
  type DialogueState,
  type FallbackTarget,
  type InternalFlowRequest,
  transitionDialogue,
} from '../flow/index.js';
import type { CreatedFrame } from '../respond/index.js';
import type { FlowInstance, Intent, ObservationType, PendingQuestion } from '../spec/index.js';
import type { FlowExecution } from './execute-flow.js';
import type { RecoveryReason } from './recover.js';
import type { VerifyCheck } from './verify-flow.js';

/** Where the flow ran: on the user's stack, or as a plan item's sub-flow. */
export type ExecutionPlace = 'flow' | 'item';

export type ExecutionEffect =
  /** An observation linked to the flow. */
  | { type: 'observe'; event: ObservationType; data: Record<string, unknown> }
  /** The turn ends as failed. */
  | { type: 'fail-turn' }
  /** A part of the reply (with its display frame, kept as a history row). */
  | { type: 'reply'; text: string; frame?: CreatedFrame; silent: boolean }
  /** A question the user's next message answers; the turn stops. */
  | { type: 'ask'; question: PendingQuestion }
  /** Internal flows the flow's hook asked for, to run in the background. */
  | { type: 'schedule'; requests: readonly InternalFlowRequest[] }
  /** Put right what `verify()` found, so a broken hook never leaves a broken thread. */
  | { type: 'repair'; check: VerifyCheck }
  /** The flow's result is not usable: it becomes Active again, without its result. */
  | { type: 'reopen' }
  /** The plan item ends, with the skill's data or why it failed. */
  | { type: 'settle'; status: 'completed' | 'failed'; result: unknown }
  /** `recover()` decides what to do with a flow that could not finish. */
  | { type: 'recover'; reason: RecoveryReason }
  /** The run waits for people; its checkpoint is kept. */
  | { type: 'suspend' }
  /** A hard-coded fallback: another flow takes over with the slots mapped. */
  | { type: 'fall-back'; target: FallbackTarget };

export interface AppliedExecution {
  state: DialogueState;
  effects: ExecutionEffect[];
}

export function applyExecution(
  execution: FlowExecution,
  where: { place: ExecutionPlace; flow: FlowInstance; intent: Intent | undefined },
): AppliedExecution {
  const { place, flow, intent } = where;
  let state = execution.state;
  const effects: ExecutionEffect[] = [];
  const observe = (event: ObservationType, data: Record<string, unknown>) =>
    effects.push({ type: 'observe', event, data });
  const failFlow = () => {
    state = transitionDialogue(state, { type: 'invalidate', flowId: flow.id });
    state = transitionDialogue(state, { type: 'set-flags', flags: { hasIssues: true } });
  };
  if (place === 'flow' && execution.filled.length > 0)
    observe('intent', { source: 'fill-slots', flow: flow.name, filled: execution.filled });
  switch (execution.kind) {
    case 'blocked': {
      const problems = execution.problems.map((p) => p.message).join(' ');
      if (place === 'item') return done({ type: 'settle', status: 'failed', result: problems });
      failFlow();
      effects.push(
        { type: 'fail-turn' },
        { type: 'reply', text: `I cannot run "${flow.name}": ${problems}`, silent: false },
      );
      observe('error', { phase: 'check', checks: execution.problems });
      break;
    }
    case 'ask': {
      const { question } = execution;
      observe('clarification', {
        kind: question.kind,
        slot: question.slot,
        question: question.question,
        level: question.level,
        ...(place === 'flow' && execution.gated.length > 0 ? { gated: execution.gated } : {}),
      });
      effects.push({ type: 'ask', question });
      break;
    }
    case 'completed':
      applyCompleted(execution);
      break;
    case 'failed':
      if (place === 'item')
        return done({ type: 'settle', status: 'failed', result: execution.outcome.message });
      effects.push({ type: 'fail-turn' }, reply(execution, intent === 'internal'));
      observe('error', {
        phase: 'skill',
        category: execution.outcome.errorCategory,
        message: execution.outcome.message,
      });
      break;
    case 'uncertain':
      effects.push({ type: 'recover', reason: { kind: 'uncertain', reason: execution.outcome.reason } });
      break;
    case 'suspended':
      effects.push({ type: 'suspend' });
      break;
    case 'fallback': {
      const { target } = execution;
      observe('recovery', {
        action: 'hard-coded-fallback',
        flow: flow.name,
        to: target.flow,
        reason: target.reason,
      });
      effects.push({ type: 'fall-back', target });
      break;
    }
  }
  return { state, effects };

  function done(effect: ExecutionEffect): AppliedExecution {
    effects.push(effect);
    return { state, effects };
  }

  function applyCompleted(completed: Extract<FlowExecution, { kind: 'completed' }>): void {
    if (completed.verify.length > 0) observe('error', { phase: 'verify', problems: completed.verify });
    if (place === 'item') {
      effects.push({ type: 'schedule', requests: completed.schedule });
      const validation = completed.validation;
      effects.push(
        validation && !validation.passed
          ? {
              type: 'settle',
              status: 'failed',
              result: `The step ended without calling its required tools: ${validation.missing.join(', ')}.`,
            }
          : { type: 'settle', status: 'completed', result: completed.outcome.data },
      );
      return;
    }
    if (completed.verify.length > 0) {
      state = transitionDialogue(state, { type: 'set-flags', flags: { hasIssues: true } });
      for (const problem of completed.verify) effects.push({ type: 'repair', check: problem.check });
      if (completed.verify.some((p) => p.check === 'output-well-formed')) {
        effects.push(
          { type: 'reopen' },
          { type: 'recover', reason: { kind: 'verify', problems: completed.verify.map((p) => p.message) } },
        );
        return;
      }
    }
    // A plan that goes on speaks through its synthesis; an Internal flow never speaks to the user.
    const silent = intent === 'internal' || (intent === 'plan' && state.flags.keepGoing === true);
    effects.push(reply(completed, silent), { type: 'schedule', requests: completed.schedule });
  }
}

function reply(execution: { text?: string; frame?: CreatedFrame }, silent: boolean): ExecutionEffect {
  return {
    type: 'reply',
    text: execution.text ?? '',
    ...(execution.frame ? { frame: execution.frame } : {}),
    silent,
  };
}
