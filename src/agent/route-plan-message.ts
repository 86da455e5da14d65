/**
 * A message that arrives while a plan is active (seed 002 stage 3, "follow-up query"): when the plan
 * waits for an answer, the message is that answer; otherwise it refines the plan instead of starting a
 * new one — rewritten, kept, or abandoned at the user's wish. A message about something else is routed
 * as usual, and the plan waits below the new flow. Returns whether the message was handled here.
 */

import { activeFlow } from '../flow/index.js';
import { abandonPlan, decideRefinement, readActivePlan, sanitizeUpdatedPlan } from '../plan/index.js';
import {
  type PlanRun,
  type PlanRuntime,
  planCatalog,
  planModelContext,
  setPlan,
  updatePlanItems,
} from './plan-run.js';
import { observe, type TurnState } from './turn-state.js';

export async function routePlanMessage(
  runtime: PlanRuntime & { turn: TurnState; text: string },
): Promise<boolean> {
  const { turn } = runtime;
  const plan = readActivePlan(turn.snapshot);
  if (!plan || turn.snapshot.pending) return false;
  const top = activeFlow(turn.snapshot.stack);
  if (!top || (top.id !== plan.id && top.planId !== plan.id)) return false;
  const run: PlanRun = { ...runtime, plan, outputs: new Map() };
  if (plan.waiting && plan.waiting.kind !== 'slot') {
    setPlan(run, { ...plan, waiting: { ...plan.waiting, feedback: runtime.text } });
    observe(turn, 'intent', { source: 'plan', decision: 'answer', itemId: plan.waiting.itemId }, plan.id);
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
    case 'abandon': {
      const reason = refinement.reason ?? 'the user asked';
      const abandoned = abandonPlan({
        stack: turn.snapshot.stack,
        planId: plan.id,
        items: plan.items,
        reason,
      });
      turn.snapshot.stack = abandoned.stack;
      updatePlanItems(run, abandoned.items, 'abandon', { reason });
      const { waiting: _dropped, ...rest } = run.plan;
      setPlan(run, { ...rest, status: 'abandoned' });
      for (const id of abandoned.cancelled)
        observe(
          turn,
          'item-status-change',
          { planId: plan.id, itemId: id, from: plan.items.find((i) => i.id === id)?.status, to: 'cancelled' },
          id,
        );
      for (const f of abandoned.popped)
        observe(turn, 'flow-pop', { flow: f.name, flowId: f.id, status: f.status }, f.id);
      const done = run.plan.items.filter((i) => i.status === 'completed').length;
      turn.replyParts.push({
        text: `I stopped the plan "${plan.title}"${done > 0 ? ` after ${done} of ${plan.items.length} steps` : ''}.`,
      });
      return true;
    }
  }
}
