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
import { gracefulFailure } from '../loop/index.js';
import type { CreatedFrame } from '../respond/index.js';
import type { FlowInstance, Intent, ObservationType, PendingQuestion, SkillOutcome } from '../spec/index.js';
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
  | { type: 'settle'; status: 'completed' | 'failed'; result: unknown; message?: string }
  /** `recover()` decides what to do with a flow that could not finish. */
  | { type: 'recover'; reason: RecoveryReason }
  /** The run waits for people; its checkpoint is kept. */
  | { type: 'suspend'; outcome: Extract<SkillOutcome, { outcome: 'suspended' }> }
  /** A hard-coded fallback: another flow takes over with the slots mapped. */
  | { type: 'fall-back'; target: FallbackTarget };

export interface AppliedExecution {
  state: DialogueState;
  effects: ExecutionEffect[];
}

/** Where the execution ran, as `applyExecution` reads it. */
export interface ExecutionWhere {
  place: ExecutionPlace;
  flow: FlowInstance;
  intent: Intent | undefined;
}

export function applyExecution(execution: FlowExecution, where: ExecutionWhere): AppliedExecution {
  const { place, flow } = where;
  const applied: AppliedExecution = { state: execution.state, effects: [] };
  if (place === 'flow' && execution.filled.length > 0)
    observe(applied, 'intent', { source: 'fill-slots', flow: flow.name, filled: execution.filled });
  switch (execution.kind) {
    case 'blocked':
      return applyBlocked(applied, execution, where);
    case 'ask':
      observe(applied, 'clarification', {
        kind: execution.question.kind,
        slot: execution.question.slot,
        question: execution.question.question,
        level: execution.question.level,
        ...(place === 'flow' && execution.gated.length > 0 ? { gated: execution.gated } : {}),
      });
      return add(applied, { type: 'ask', question: execution.question });
    case 'completed':
      return place === 'item'
        ? applyCompletedItem(applied, execution)
        : applyCompletedFlow(applied, execution, where);
    case 'failed':
      if (place === 'item')
        return add(applied, { type: 'settle', status: 'failed', result: execution.outcome.message });
      add(applied, { type: 'fail-turn' }, reply(execution, where.intent === 'internal'));
      return observe(applied, 'error', {
        phase: 'skill',
        category: execution.outcome.errorCategory,
        message: execution.outcome.message,
      });
    case 'declined':
      return applyDeclined(applied, execution, where);
    case 'uncertain':
      return add(applied, {
        type: 'recover',
        reason: { kind: 'uncertain', reason: execution.outcome.reason },
      });
    case 'suspended':
      if (place === 'flow' && execution.outcome.kind === 'user-stop')
        return applyUserStop(applied, execution, flow);
      return add(applied, { type: 'suspend', outcome: execution.outcome });
    case 'fallback': {
      const { target } = execution;
      observe(applied, 'recovery', {
        action: 'hard-coded-fallback',
        flow: flow.name,
        to: target.flow,
        reason: target.reason,
      });
      return add(applied, { type: 'fall-back', target });
    }
  }
}

/**
 * The user stopped the flow while it ran (a stop message, a cancel, the stop button; seed 004): it ends
 * as a cancel does, and the reply is the graceful summary of what its run did and did not do.
 */
function applyUserStop(
  applied: AppliedExecution,
  execution: Extract<FlowExecution, { kind: 'suspended' }>,
  flow: FlowInstance,
): AppliedExecution {
  const summary = gracefulFailure({
    state: execution.checkpoint?.state ?? { completed: [], failures: [] },
    category: 'loop_limit',
    headline: 'Stopped as you asked.',
  });
  transition(applied, { type: 'invalidate', flowId: flow.id });
  observe(applied, 'recovery', { action: 'user-stop', flow: flow.name, summary: summary.message });
  return add(applied, { type: 'reply', text: summary.message, silent: false });
}

/**
 * The skill ended without a call a person refused (docs/decisions/0088): an item fails with the decision as
 * its result, for the plan to go on without it; a flow replies with the decision and the turn completes.
 */
function applyDeclined(
  applied: AppliedExecution,
  execution: Extract<FlowExecution, { kind: 'declined' }>,
  { place, flow, intent }: ExecutionWhere,
): AppliedExecution {
  if (place === 'item') return add(applied, { type: 'settle', status: 'failed', result: execution.text });
  observe(applied, 'recovery', { action: 'declined', flow: flow.name, message: execution.outcome.message });
  return add(applied, { type: 'reply', text: execution.text, silent: intent === 'internal' });
}

/** The pre-hook refused the flow: an item fails; a flow is invalidated and the turn fails, saying why. */
function applyBlocked(
  applied: AppliedExecution,
  execution: Extract<FlowExecution, { kind: 'blocked' }>,
  { place, flow }: ExecutionWhere,
): AppliedExecution {
  const problems = execution.problems.map((p) => p.message).join(' ');
  if (place === 'item') return add(applied, { type: 'settle', status: 'failed', result: problems });
  transition(applied, { type: 'invalidate', flowId: flow.id });
  transition(applied, { type: 'set-flags', flags: { hasIssues: true } });
  add(
    applied,
    { type: 'fail-turn' },
    { type: 'reply', text: `I cannot run "${flow.name}": ${problems}`, silent: false },
  );
  return observe(applied, 'error', { phase: 'check', checks: execution.problems });
}

/** An item that completed settles into the plan, unless it never called its required tools (seed 002 TAEF). */
function applyCompletedItem(
  applied: AppliedExecution,
  completed: Extract<FlowExecution, { kind: 'completed' }>,
): AppliedExecution {
  if (completed.verify.length > 0) observe(applied, 'error', { phase: 'verify', problems: completed.verify });
  add(applied, { type: 'schedule', requests: completed.schedule });
  const validation = completed.validation;
  return add(
    applied,
    validation && !validation.passed
      ? {
          type: 'settle',
          status: 'failed',
          result: `The step ended without calling its required tools: ${validation.missing.join(', ')}.`,
        }
      : {
          type: 'settle',
          status: 'completed',
          result: completed.outcome.data,
          ...(completed.outcome.message !== undefined ? { message: completed.outcome.message } : {}),
        },
  );
}

/**
 * A flow that completed replies and schedules its Internal flows; what `verify()` found is repaired, and an
 * output that is not well-formed sends the flow to recovery instead.
 */
function applyCompletedFlow(
  applied: AppliedExecution,
  completed: Extract<FlowExecution, { kind: 'completed' }>,
  { intent }: ExecutionWhere,
): AppliedExecution {
  if (completed.verify.length > 0) {
    observe(applied, 'error', { phase: 'verify', problems: completed.verify });
    transition(applied, { type: 'set-flags', flags: { hasIssues: true } });
    for (const problem of completed.verify) add(applied, { type: 'repair', check: problem.check });
    if (completed.verify.some((p) => p.check === 'output-well-formed'))
      return add(
        applied,
        { type: 'reopen' },
        { type: 'recover', reason: { kind: 'verify', problems: completed.verify.map((p) => p.message) } },
      );
  }
  // A success taken without the flow's required tools (every enforcement prompt spent) is not trusted:
  // the flow goes to recovery as an output that is not well-formed does (seed 002 TAEF).
  const validation = completed.validation;
  if (validation && !validation.passed) {
    const problem = `The skill ended without calling its required tools: ${validation.missing.join(', ')}.`;
    observe(applied, 'error', { phase: 'enforcement', missing: validation.missing, message: problem });
    return add(
      applied,
      { type: 'reopen' },
      { type: 'recover', reason: { kind: 'verify', problems: [problem] } },
    );
  }
  // A plan that goes on speaks through its synthesis; an Internal flow never speaks to the user.
  const silent = intent === 'internal' || (intent === 'plan' && applied.state.flags.keepGoing === true);
  return add(applied, reply(completed, silent), { type: 'schedule', requests: completed.schedule });
}

function add(applied: AppliedExecution, ...effects: ExecutionEffect[]): AppliedExecution {
  applied.effects.push(...effects);
  return applied;
}

function observe(
  applied: AppliedExecution,
  event: ObservationType,
  data: Record<string, unknown>,
): AppliedExecution {
  return add(applied, { type: 'observe', event, data });
}

function transition(applied: AppliedExecution, event: Parameters<typeof transitionDialogue>[1]): void {
  applied.state = transitionDialogue(applied.state, event);
}

function reply(execution: { text?: string; frame?: CreatedFrame }, silent: boolean): ExecutionEffect {
  return {
    type: 'reply',
    text: execution.text ?? '',
    ...(execution.frame ? { frame: execution.frame } : {}),
    silent,
  };
}
