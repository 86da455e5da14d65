/**
 * What happens when an item ends (seed 001 replanning check, seed 002 step outputs and updatedPlan):
 * its sub-flow is popped, its full output enters the step output table, a plan update it proposed from
 * inside is sanitized and applied, and then either the replanning check (after a completed item) or the
 * plan's failure policy (after a failed one) decides what comes next. Saved before it returns.
 */
import type { SkillLoopEvent } from '../../loop/index.js';
import { describeResult } from '../../respond/index.js';
import type { StepOutputEntry, TodoItem, ToolCallResult } from '../../spec/index.js';
import { observe, record } from '../../turn/index.js';
import {
  applyFailurePolicy,
  applyReplanDecision,
  cancelBlockedItems,
  checkReplan,
  createStepOutput,
  proposeReplacement,
  readUpdatedPlan,
  replaceFailedItem,
  sanitizeUpdatedPlan,
  updateItem,
} from '../index.js';
import {
  type PlanRun,
  planCatalog,
  planModelContext,
  setItemStatus,
  setPlan,
  updatePlanItems,
} from './plan-run.js';
import { endFlow } from './plan-stack.js';

export interface SettleOptions {
  item: TodoItem;
  status: 'completed' | 'failed';
  /** The skill's success data, or why the item failed. */
  result: unknown;
  /** The skill's own words for what it found (its `message`), when it gave them. */
  message?: string;
  events: readonly SkillLoopEvent[];
}

export async function settlePlanItem(
  run: PlanRun,
  options: SettleOptions,
): Promise<'settled' | 'synthesize'> {
  const { turn } = run;
  const { item } = options;
  if (run.plan.waiting?.itemId === item.id) {
    const { waiting: _settled, ...rest } = run.plan;
    setPlan(run, rest);
  }
  endFlow(turn, item.id, options.status === 'completed' ? { completed: options.result } : 'invalid');
  const summary = oneLine(options.message ?? describeResult(options.result));
  setItemStatus(
    run,
    updateItem(run.plan.items, item.id, { status: options.status, summary }),
    item.id,
    item.status,
  );
  const settled = run.plan.items.find((i) => i.id === item.id) as TodoItem;
  const toolResults = options.events.flatMap((e): ToolCallResult[] =>
    e.type === 'tool-result' ? [e.result] : [],
  );
  const entry = createStepOutput({
    planId: run.plan.id,
    item: settled,
    result: run.batch.redact.value(options.result),
    toolResults,
    maxChars: run.execution.maxStepOutputChars,
    now: turn.clock.now(),
  });
  record(turn, 'step-output', entry);
  run.outputs.delete(item.id);
  run.outputs.set(item.id, entry);
  const next =
    options.status === 'completed'
      ? await checkAfterCompleted(run, item, entry, options.events)
      : await applyFailure(run, item, entry);
  await run.save();
  return next;
}

/** The shape every change of the plan is checked against. */
function planShape(run: PlanRun) {
  return { ids: run.ids, catalog: planCatalog(run).catalog, maxItems: run.settings.maxItems };
}

/**
 * After a completed item: the plan update it proposed from inside is sanitized and applied, then the
 * replanning check may continue, reorder, expand or prune what is still pending (seed 001).
 */
async function checkAfterCompleted(
  run: PlanRun,
  item: TodoItem,
  entry: StepOutputEntry,
  events: readonly SkillLoopEvent[],
): Promise<'settled'> {
  const { turn } = run;
  const shape = planShape(run);
  const proposal = readUpdatedPlan(events);
  if (proposal) {
    const sanitized = sanitizeUpdatedPlan(run.plan.items, proposal.items, shape);
    if (sanitized.ok)
      updatePlanItems(run, sanitized.items, 'updated-plan', {
        itemId: item.id,
        reason: proposal.reason ?? '',
      });
    else observe(turn, 'error', { phase: 'updated-plan', problems: sanitized.problems }, item.id);
  }
  if (!run.plan.items.some((i) => i.status === 'pending')) return 'settled';
  const { decision, problem } = await checkReplan({
    ...planModelContext(run),
    plan: run.plan,
    finished: entry,
    scratchpad: turn.snapshot.scratchpad.map((note) => note.text),
  });
  if (problem) observe(turn, 'error', { phase: 'replan', message: problem }, run.plan.id);
  const applied = applyReplanDecision(run.plan.items, decision, shape);
  if (applied.ok)
    updatePlanItems(run, applied.items, 'replan', {
      decision: decision.decision,
      reason: decision.reason ?? '',
    });
  else
    observe(
      turn,
      'error',
      { phase: 'replan', decision: decision.decision, message: applied.problem },
      run.plan.id,
    );
  return 'settled';
}

/** After a failed item, the plan's failure policy decides: skip, stop and synthesize, or re-route the step. */
async function applyFailure(
  run: PlanRun,
  item: TodoItem,
  entry: StepOutputEntry,
): Promise<'settled' | 'synthesize'> {
  const step = applyFailurePolicy(run.plan.items, item.id, run.plan.failurePolicy);
  let items = step.items;
  if (step.next === 'reroute') {
    const { replacement } = await proposeReplacement({
      ...planModelContext(run),
      plan: run.plan,
      failed: entry,
      catalogView: planCatalog(run).view,
    });
    const replaced =
      replacement.decision === 'replace'
        ? replaceFailedItem(items, item.id, replacement.item, planShape(run))
        : undefined;
    if (replaced && !replaced.ok)
      observe(run.turn, 'error', { phase: 'reroute', message: replaced.problem }, item.id);
    items = replaced?.ok ? replaced.items : cancelBlockedItems(items).items;
  }
  updatePlanItems(run, items, 'failure-policy', { policy: run.plan.failurePolicy, failed: item.id });
  return step.next === 'synthesize' ? 'synthesize' : 'settled';
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
