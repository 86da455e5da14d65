/**
 * The plan loop (seeds 001 and 002; pseudo-code in docs/architecture/plan-loop.md): the Plan policy
 * turns the request into a TodoList, items run one at a time as sub-flows tagged with the plan's id, a
 * replanning check follows each item, and when every item is settled the Plan policy runs once more and
 * either stacks more work or synthesizes the answer. The plan is saved before each item runs and after
 * it ends, so a restart between any two items resumes where it stopped.
 */
import { PlanError } from '../../errors/index.js';
import { activeFlow } from '../../flow/index.js';
import type { FlowInstance, PlanState } from '../../spec/index.js';
import { observe, type TurnState } from '../../turn/index.js';
import {
  cancelBlockedItems,
  cancelOpenItems,
  cancelPendingItems,
  currentItem,
  diffTodoList,
  isTodoListSettled,
  materializeDrafts,
  nextRunnableItem,
  planProgress,
  proposePlan,
  readActivePlan,
  readPlanState,
  renderStepOutputs,
  reviewPlan,
  searchPlans,
  shouldSearchPlans,
  synthesizePlan,
} from '../index.js';
import {
  type PlanRun,
  type PlanRuntime,
  planCatalog,
  planModelContext,
  readStepOutputs,
  setPlan,
  updatePlanItems,
} from './plan-run.js';
import { endFlow } from './plan-stack.js';
import { runPlanItem } from './run-plan-item.js';

/** `continue`: the plan is done (or gone) and the flow below may run; `stop`: the turn ends here. */
export type PlanStep = 'continue' | 'stop';

export async function runPlan(runtime: PlanRuntime & { turn: TurnState }): Promise<PlanStep> {
  const top = activeFlow(runtime.turn.snapshot.stack) as FlowInstance;
  const planFlow = top.planId ? (runtime.turn.snapshot.stack.find((f) => f.id === top.planId) ?? top) : top;
  // One workflow span for the plan; its items' spans, and the plan policy's model calls, nest under it.
  const span = runtime.telemetry?.startFlow({ id: planFlow.id, name: planFlow.name });
  try {
    const step = await runPlanSteps(runtime, top);
    span?.end({ status: step === 'stop' ? 'waiting' : 'completed' });
    return step;
  } catch (error) {
    span?.end({ status: 'failed', error });
    throw error;
  }
}

async function runPlanSteps(
  runtime: PlanRuntime & { turn: TurnState },
  top: FlowInstance,
): Promise<PlanStep> {
  const { turn } = runtime;
  const planFlowId = top.planId ?? top.id;
  const existing = readActivePlan(turn.snapshot, planFlowId);
  if (!existing && top.id !== planFlowId) {
    // A sub-flow whose plan is no longer active (finished or abandoned) can never finish: it goes.
    endFlow(turn, top.id, 'invalid');
    return 'continue';
  }
  const plan = existing ?? (await startPlan(runtime, top));
  if (!plan) return 'continue';
  const run: PlanRun = {
    ...runtime,
    plan,
    outputs: await readStepOutputs(runtime.store, turn.threadId, plan),
  };
  let started = 0;
  for (;;) {
    const current = currentItem(run.plan.items);
    if (current && !turn.snapshot.stack.some((f) => f.id === current.id)) {
      // Its sub-flow is gone although the item was running: the user cancelled that step.
      const cancelled = run.plan.items.map((i) =>
        i.id === current.id ? { ...i, status: 'cancelled' as const, summary: 'cancelled by the user' } : i,
      );
      const { waiting: _dropped, ...rest } = run.plan;
      setPlan(run, rest);
      updatePlanItems(run, cancelled, 'cancel');
      continue;
    }
    let result: Awaited<ReturnType<typeof runPlanItem>> | undefined;
    if (current) result = await runPlanItem(run, current);
    else {
      const blocked = cancelBlockedItems(run.plan.items);
      if (blocked.cancelled.length > 0) updatePlanItems(run, blocked.items, 'blocked');
      const next = nextRunnableItem(run.plan.items);
      if (next) {
        if (started >= runtime.limits.maxFlowsPerTurn) return pausePlan(run);
        started += 1;
        result = await runPlanItem(run, next);
      } else if (!isTodoListSettled(run.plan.items)) {
        // Pending items whose dependencies can never be met (a defensive bound; validation prevents it).
        const stuck = cancelPendingItems(run.plan.items, 'not run: its dependencies cannot be met');
        updatePlanItems(run, stuck.items, 'unreachable');
        continue;
      } else if (await extendPlan(run)) continue;
      else return finishPlan(run);
    }
    if (result === 'stop') return 'stop';
    if (result === 'synthesize') return finishPlan(run);
  }
}

/** Marks a plan whose Plan flow left the stack some other way (cancelled, invalidated) as abandoned. */
export function retireStalePlan(turn: TurnState): void {
  const plan = readPlanState(turn.snapshot);
  if (plan?.status !== 'active' || turn.snapshot.stack.some((f) => f.id === plan.id)) return;
  const { waiting: _dropped, ...rest } = plan;
  const items = cancelOpenItems(plan.items, 'not run: the plan was cancelled').items;
  const revision = plan.revision + 1;
  setPlan({ turn, plan }, { ...rest, items, status: 'abandoned', revision });
  const changes = diffTodoList(plan.items, items);
  observe(turn, 'plan-update', { planId: plan.id, revision, cause: 'cancel', changes, items }, plan.id);
}

/** The Plan policy's first run: propose (with tree search when warranted), validate, save. */
async function startPlan(
  runtime: PlanRuntime & { turn: TurnState },
  planFlow: FlowInstance,
): Promise<PlanState | undefined> {
  const { turn } = runtime;
  const definition = runtime.flows.get(planFlow.name);
  const objective = lastUserText(runtime) ?? definition?.description ?? 'the request';
  const { view, catalog } = planCatalog(runtime);
  const proposeOptions = {
    ...planModelContext(runtime),
    objective,
    catalogView: view,
    catalog,
    ids: runtime.ids,
    maxItems: runtime.settings.maxItems,
    ...(definition?.skill ? { guidance: definition.skill } : {}),
  };
  let proposal: Awaited<ReturnType<typeof proposePlan>>;
  let search: Record<string, unknown> | undefined;
  try {
    proposal = await proposePlan(proposeOptions);
    if (
      runtime.settings.treeSearch === 'auto' &&
      shouldSearchPlans(proposal, runtime.settings.latsMinItems)
    ) {
      const result = await searchPlans(proposal, {
        ...proposeOptions,
        candidates: runtime.settings.latsCandidates,
      });
      proposal = result.chosen;
      search = {
        candidates: result.candidates.map((c) => ({
          title: c.title,
          items: c.items.map((i) => i.description),
        })),
        scores: result.scores,
        chosen: result.chosenIndex,
      };
    }
  } catch (error) {
    if (!PlanError.isInstance(error)) throw error;
    endFlow(turn, planFlow.id, 'invalid');
    turn.failed = true;
    turn.replyParts.push({ text: `I could not make a workable plan for this: ${error.message}` });
    observe(turn, 'error', { phase: 'plan', message: error.message, problems: error.problems }, planFlow.id);
    return undefined;
  }
  const plan: PlanState = {
    specVersion: 1,
    id: planFlow.id,
    objective,
    title: proposal.title,
    status: 'active',
    items: proposal.items,
    revision: 1,
    rounds: 0,
    failurePolicy: runtime.settings.failurePolicy,
    startSeq: turn.snapshot.historySeq + turn.history.length,
  };
  setPlan({ turn, plan }, plan);
  observe(
    turn,
    'plan',
    { planId: plan.id, title: plan.title, objective, items: plan.items, ...(search ? { search } : {}) },
    plan.id,
  );
  await runtime.save();
  return plan;
}

/**
 * Plan completion is never automatic: when every item is settled the Plan policy decides once more
 * whether to stack more work (at most `maxRounds` times). Returns whether it did.
 */
async function extendPlan(run: PlanRun): Promise<boolean> {
  const outputs = renderStepOutputs(run.outputs.values());
  const { review, problem } = await reviewPlan({ ...planModelContext(run), plan: run.plan, outputs });
  if (problem) observe(run.turn, 'error', { phase: 'plan-review', message: problem }, run.plan.id);
  if (review.decision === 'finish') return false;
  if (run.plan.rounds >= run.settings.maxRounds) {
    const message = `The plan may add work at most ${run.settings.maxRounds} times; it finishes now. To allow more, raise \`plan.maxRounds\`.`;
    observe(run.turn, 'error', { phase: 'plan-review', message }, run.plan.id);
    return false;
  }
  try {
    const added = materializeDrafts(review.items, {
      ids: run.ids,
      existing: run.plan.items,
      catalog: planCatalog(run).catalog,
      maxItems: run.settings.maxItems,
    });
    setPlan(run, { ...run.plan, rounds: run.plan.rounds + 1 });
    updatePlanItems(run, [...run.plan.items, ...added], 'review', { reason: review.reason ?? '' });
  } catch (error) {
    if (!PlanError.isInstance(error)) throw error;
    observe(run.turn, 'error', { phase: 'plan-review', message: error.message }, run.plan.id);
    return false;
  }
  await run.save();
  return true;
}

/** Synthesis writes the answer; the Plan flow completes and is popped. */
async function finishPlan(run: PlanRun): Promise<PlanStep> {
  const outputs = renderStepOutputs(run.outputs.values());
  // The answer streams as the model writes it, as a flow's reply does (docs/decisions/0081).
  const live = run.onSkillEvent;
  const parentId = run.plan.id;
  const synthesis = await synthesizePlan({
    ...planModelContext(run),
    plan: run.plan,
    outputs,
    ...(live
      ? { onContentDelta: (delta: string) => live({ type: 'text-delta', delta, message: true, parentId }) }
      : {}),
  });
  // The answer is complete: what a live reader holds back of it goes out.
  live?.({ type: 'text', text: synthesis.content, parentId });
  setPlan(run, { ...run.plan, status: 'completed', synthesis });
  endFlow(run.turn, run.plan.id, { completed: { summary: synthesis.content } });
  run.turn.replyParts.push({ text: synthesis.content });
  observe(run.turn, 'synthesis', { planId: run.plan.id, ...synthesis }, run.plan.id);
  await run.save();
  return 'continue';
}

/** The per-turn bound on items is reached: the plan waits for the next message. */
function pausePlan(run: PlanRun): PlanStep {
  const progress = planProgress(run.plan.items);
  run.turn.replyParts.push({
    text: `Progress on "${run.plan.title}": ${progress.completed} of ${progress.total} steps done (a turn runs at most ${run.limits.maxFlowsPerTurn}: \`limits.maxFlowsPerTurn\`). Send "continue" to go on, or tell me what to change.`,
  });
  return 'stop';
}

function lastUserText(runtime: PlanRuntime): string | undefined {
  for (let index = runtime.context.length - 1; index >= 0; index--) {
    const message = runtime.context[index];
    if (message?.role !== 'user') continue;
    return message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
  }
  return undefined;
}
