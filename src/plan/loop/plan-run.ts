/**
 * What the plan loop's phase functions share within one turn, and the small helpers they all use:
 * writing the plan back with a `plan-update` observation of exactly what changed, reporting an item's
 * status change, and the step output table as read once per turn.
 */
import type { DelegationContext } from '../../a2a/index.js';
import type { PlanState, StateStore, StepOutputEntry, TodoItem, TodoItemStatus } from '../../spec/index.js';
import type { RunFlowsOptions } from '../../turn/index.js';
import { observe, type TurnState } from '../../turn/index.js';
import type { IdGenerator } from '../../util/index.js';
import {
  diffTodoList,
  hasChanges,
  latestStepOutputs,
  type PlanCatalog,
  type PlanCatalogView,
  type PlanModelContext,
  type PlanOptions,
  writePlanState,
} from '../index.js';

/**
 * Everything the agent hands the plan loop for one turn: what the flow loop gets (its `tools` are the
 * agent's plus `update_plan`, and `delegate_to_agent` when A2A agents are configured), and the plan's own.
 */
export interface PlanRuntime extends Omit<RunFlowsOptions, 'turn' | 'ids'> {
  ids: IdGenerator;
  settings: PlanOptions;
  store: StateStore;
  /** Saves the turn so far (snapshot, history rows, observations) and publishes what it saved. */
  save: () => Promise<void>;
  /** Present when A2A agents are configured: answers a delegated task's question. */
  delegation?: DelegationContext;
}

/** One plan being run in one turn. */
export interface PlanRun extends PlanRuntime {
  turn: TurnState;
  plan: PlanState;
  /** The step output table, latest entry per item. */
  outputs: Map<string, StepOutputEntry>;
}

export function planModelContext(run: PlanRuntime): PlanModelContext {
  return {
    model: run.model,
    persona: run.persona,
    conversation: run.context,
    ...(run.stream ? { stream: true } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
  };
}

/** What items may run as and require, as the planner sees it and as validation checks it. */
export function planCatalog(run: PlanRuntime): { view: PlanCatalogView; catalog: PlanCatalog } {
  const flows = [...run.flows.values()].filter((f) => f.intent !== 'plan' && f.intent !== 'internal');
  const hidden = new Set(['update_plan', ...(run.execution.delegation ? [] : ['delegate_to_agent'])]);
  const tools = [...run.tools.values()].filter((t) => !hidden.has(t.name));
  const agents = run.execution.delegation && run.delegation ? [...run.delegation.pool.agents.values()] : [];
  return {
    view: {
      flows,
      tools: tools.map((t) => ({ name: t.name, description: t.description })),
      agents: agents.map((a) => ({ id: a.id, description: a.description ?? `the A2A agent at ${a.url}` })),
    },
    catalog: { flows: new Set(flows.map((f) => f.name)), tools: new Set(tools.map((t) => t.name)) },
  };
}

/**
 * Replaces the plan's items and reports the change as one `plan-update` with `added`, `modified` (before
 * and after) and `removed`; a change that changes nothing reports nothing.
 */
export function updatePlanItems(
  run: PlanRun,
  items: TodoItem[],
  cause: string,
  detail: Record<string, unknown> = {},
): void {
  const changes = diffTodoList(run.plan.items, items);
  if (!hasChanges(changes)) return;
  setPlan(run, { ...run.plan, items, revision: run.plan.revision + 1 });
  observe(
    run.turn,
    'plan-update',
    { planId: run.plan.id, revision: run.plan.revision, cause, ...detail, changes, items },
    run.plan.id,
  );
}

/** Changes one item's status (and summary), with an `item-status-change` whose parent is the item. */
export function setItemStatus(run: PlanRun, items: TodoItem[], itemId: string, from: TodoItemStatus): void {
  const item = items.find((i) => i.id === itemId);
  setPlan(run, { ...run.plan, items, revision: run.plan.revision + 1 });
  if (!item || item.status === from) return;
  observe(
    run.turn,
    'item-status-change',
    {
      planId: run.plan.id,
      itemId,
      from,
      to: item.status,
      ...(item.summary ? { summary: item.summary } : {}),
    },
    itemId,
  );
}

/** Writes the plan into the turn's snapshot (in place: the turn's phases share that snapshot object). */
export function setPlan(run: { turn: TurnState; plan: PlanState }, plan: PlanState): void {
  run.plan = plan;
  run.turn.snapshot.extensions = writePlanState(run.turn.snapshot, plan).extensions;
}

/** The step output table of a plan, read once per turn from the rows appended since the plan began. */
export async function readStepOutputs(
  store: StateStore,
  threadId: string,
  plan: PlanState,
): Promise<Map<string, StepOutputEntry>> {
  const rows = await store.readHistory(threadId, { afterSeq: plan.startSeq });
  const entries = rows
    .filter((row) => row.kind === 'step-output')
    .map((row) => JSON.parse(row.data) as StepOutputEntry)
    .filter((entry) => entry.planId === plan.id);
  return latestStepOutputs(entries);
}
