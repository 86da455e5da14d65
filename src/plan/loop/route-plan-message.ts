/**
 * A message that arrives while a plan is active (seed 002 stage 3, "follow-up query"). When the plan
 * waits for an answer, the message is that answer; "stop" or "cancel" (the decision layer's built-in)
 * abandons the plan; other built-ins (greetings, help …) are routed as usual. Otherwise the message
 * refines the plan instead of starting a new one — rewritten, kept, or abandoned at the user's wish —
 * and a message about something else is routed as usual while the plan waits below the new flow.
 * Returns whether the message was handled here.
 */
import { activeFlow } from '../../flow/index.js';
import { answerRunFromText, describeWaiting } from '../../hitl/resume/index.js';
import { decideRoute } from '../../nlu/index.js';
import type { PlanState } from '../../spec/index.js';
import { observe, type TurnState } from '../../turn/index.js';
import { cancelOpenItems, decideRefinement, readActivePlan, sanitizeUpdatedPlan } from '../index.js';
import {
  type PlanRun,
  type PlanRuntime,
  planCatalog,
  planModelContext,
  setPlan,
  updatePlanItems,
} from './plan-run.js';
import { endFlow } from './plan-stack.js';
import { retireStalePlan } from './run-plan.js';

export async function routePlanMessage(
  runtime: PlanRuntime & { turn: TurnState; text: string; rules: Parameters<typeof decideRoute>[0]['rules'] },
): Promise<boolean> {
  const { turn } = runtime;
  retireStalePlan(turn);
  const plan = readActivePlan(turn.snapshot);
  if (!plan || turn.snapshot.pending) return false;
  const top = activeFlow(turn.snapshot.stack);
  if (!top || (top.id !== plan.id && top.planId !== plan.id)) return false;
  const run: PlanRun = { ...runtime, plan, outputs: new Map() };
  const decision = decideRoute({ text: runtime.text, rules: runtime.rules, flows: runtime.flows });
  if (decision?.kind === 'built-in') {
    if (decision.builtIn === 'status') {
      observe(turn, 'intent', { source: 'fast-path', builtIn: 'status', strategy: 'script' }, plan.id);
      turn.replyParts.push({ text: describePlanStatus(plan) });
      return true;
    }
    if (decision.builtIn !== 'cancel') return false;
    observe(turn, 'intent', { source: 'fast-path', builtIn: 'cancel', strategy: 'script' }, plan.id);
    abandon(run, plan, 'the user cancelled it');
    return true;
  }
  if (plan.waiting?.kind === 'question') {
    setPlan(run, { ...plan, waiting: { ...plan.waiting, feedback: runtime.text } });
    observe(turn, 'intent', { source: 'plan', decision: 'answer', itemId: plan.waiting.itemId }, plan.id);
    return true;
  }
  if (plan.waiting?.kind === 'skill') {
    // A message while the item's run waits for people is read as their answer; one that answers
    // nothing gets the open questions again (the run goes on only when every one is answered).
    const answered = answerRunFromText(plan.waiting.run, runtime.text, {
      now: turn.clock.now(),
      ...(turn.snapshot.principal !== undefined ? { principal: turn.snapshot.principal } : {}),
    });
    observe(
      turn,
      'intent',
      {
        source: 'plan',
        decision: answered?.kind === 'answered' ? 'answer' : 'unclear',
        itemId: plan.waiting.itemId,
      },
      plan.id,
    );
    if (answered?.kind === 'answered')
      setPlan(run, { ...plan, waiting: { ...plan.waiting, run: answered.run } });
    else
      turn.replyParts.push({
        text: `${answered ? answered.reply : 'Please answer first.'} ${describeWaiting(plan.waiting.run)}`,
      });
    return true;
  }
  const { refinement, problem } = await decideRefinement({ ...planModelContext(runtime), plan });
  if (problem) observe(turn, 'error', { phase: 'refine', message: problem }, plan.id);
  observe(
    turn,
    'intent',
    { source: 'plan', decision: refinement.decision, reason: refinement.reason ?? '' },
    plan.id,
  );
  switch (refinement.decision) {
    case 'continue':
      return true;
    case 'unrelated':
      return false;
    case 'refine': {
      const sanitized = sanitizeUpdatedPlan(plan.items, refinement.items, {
        ids: runtime.ids,
        catalog: planCatalog(runtime).catalog,
        maxItems: runtime.settings.maxItems,
      });
      if (sanitized.ok) updatePlanItems(run, sanitized.items, 'refine', { reason: refinement.reason ?? '' });
      else {
        observe(turn, 'error', { phase: 'refine', problems: sanitized.problems }, plan.id);
        turn.replyParts.push({ text: 'I could not change the plan that way; it goes on as it was.' });
      }
      return true;
    }
    case 'abandon':
      abandon(run, plan, refinement.reason ?? 'the user asked');
      return true;
  }
}

/**
 * Plan abandonment (seed 001, DESIGN.md invariant 3): the Plan flow is invalidated together with every
 * sub-flow carrying its id, all are popped, and the items that had not finished are cancelled.
 */
function abandon(run: PlanRun, plan: PlanState, reason: string): void {
  const { turn } = run;
  const { items, cancelled } = cancelOpenItems(plan.items, `not run: the plan was abandoned (${reason})`);
  updatePlanItems(run, items, 'abandon', { reason });
  for (const id of cancelled)
    observe(
      turn,
      'item-status-change',
      { planId: plan.id, itemId: id, from: plan.items.find((i) => i.id === id)?.status, to: 'cancelled' },
      id,
    );
  const { waiting: _dropped, ...rest } = run.plan;
  setPlan(run, { ...rest, status: 'abandoned' });
  endFlow(turn, plan.id, 'invalid');
  const done = items.filter((i) => i.status === 'completed').length;
  turn.replyParts.push({
    text: `I stopped the plan "${plan.title}"${done > 0 ? ` after ${done} of ${plan.items.length} steps` : ''}.`,
  });
}

/** "Where are we" while a plan runs: its items with their status, without a model call. */
function describePlanStatus(plan: PlanState): string {
  const done = plan.items.filter((i) => i.status === 'completed').length;
  const lines = plan.items.map((i) => `- [${i.status}] ${i.description}`);
  return `${plan.title}: ${done} of ${plan.items.length} steps done.\n${lines.join('\n')}`;
}
