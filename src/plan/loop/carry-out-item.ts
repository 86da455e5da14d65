/**
 * Carries out what a plan item's outcome does (`applyExecution`, src/policy): the item settles into the
 * plan, waits for the user (a slot, a question, a suspended run), is re-targeted by a fallback — or runs
 * once more with the recovery's guidance.
 */
import type { FlowDefinition } from '../../flow/index.js';
import { type ContinuedRun, describeWaiting, suspendFlowRun } from '../../hitl/resume/index.js';
import type { SkillLoopEvent } from '../../loop/index.js';
import {
  type ExecutionEffect,
  type FlowExecution,
  type RecoveryReason,
  recover,
} from '../../policy/index.js';
import type { FlowInstance, JsonValue, PlanWaiting, TodoItem } from '../../spec/index.js';
import { observe, scheduleBackgroundFlows, update } from '../../turn/index.js';
import { updateItem } from '../index.js';
import { type PlanRun, setItemStatus, setPlan, updatePlanItems } from './plan-run.js';
import { endFlow } from './plan-stack.js';
import { settlePlanItem } from './settle-plan-item.js';

/** How an item's run ends: settled, waiting for the user (`stop`), or the plan synthesizes now. */
export type ItemResult = 'settled' | 'stop' | 'synthesize';

/** Where one run of an item stands, for carrying out what its outcome does. */
export interface ItemRun {
  item: TodoItem;
  definition: FlowDefinition;
  flow: FlowInstance;
  /** The item's tool calls and results, those made before a suspension included. */
  events: SkillLoopEvent[];
  execution: FlowExecution;
  carried: Extract<ContinuedRun, { kind: 'resume' }> | undefined;
}

/**
 * Carries out what the item's outcome does (`applyExecution`): the item settles, waits for the user, is
 * re-targeted by a fallback — or runs again once, with the recovery's guidance (`again`).
 */
export async function carryOut(
  run: PlanRun,
  current: ItemRun,
  effects: readonly ExecutionEffect[],
): Promise<{ kind: 'done'; result: ItemResult } | { kind: 'again'; note?: string }> {
  const { turn } = run;
  const { item, flow, execution } = current;
  for (const effect of effects) {
    switch (effect.type) {
      case 'observe':
        observe(turn, effect.event, effect.data, item.id);
        break;
      case 'schedule':
        scheduleBackgroundFlows(turn, effect.requests, { flows: run.flows, ids: run.ids });
        break;
      case 'settle':
        return {
          kind: 'done',
          result: await settlePlanItem(run, {
            item,
            status: effect.status,
            result: effect.result,
            ...(effect.message !== undefined ? { message: effect.message } : {}),
            events: current.events,
          }),
        };
      case 'ask':
        turn.snapshot.pending = effect.question;
        return { kind: 'done', result: await waitForUser(run, item, { kind: 'slot', itemId: item.id }) };
      case 'recover':
        return recoverItem(run, current, effect.reason);
      case 'suspend': {
        turn.suspended = true;
        const suspended = suspendFlowRun(turn, {
          flowId: item.id,
          runTurnId: item.runTurnId ?? turn.turnId,
          outcome: effect.outcome,
          events: execution.events,
          ...(execution.checkpoint ? { checkpoint: execution.checkpoint } : {}),
          ids: run.ids,
          redact: run.batch.redact,
          ...(run.batch.sealer ? { sealer: run.batch.sealer } : {}),
          ...(run.limits.approvalTtlMs !== undefined ? { approvalTtlMs: run.limits.approvalTtlMs } : {}),
          ...(current.carried ? { answered: current.carried.answered } : {}),
          tools: run.tools,
        });
        const waiting: PlanWaiting = { kind: 'skill', itemId: item.id, run: suspended };
        return { kind: 'done', result: await waitForUser(run, item, waiting, describeWaiting(suspended)) };
      }
      case 'fall-back': {
        // A hard-coded fallback re-targets the item: the old sub-flow goes, the item runs again as the target.
        const { target } = effect;
        endFlow(turn, flow.id, 'invalid');
        const retargeted = run.plan.items.map((i) =>
          i.id === item.id
            ? {
                ...i,
                flow: target.flow,
                slots: { ...i.slots, ...(target.slots as Record<string, JsonValue>) },
              }
            : i,
        );
        updatePlanItems(run, retargeted, 'fallback', { itemId: item.id, reason: target.reason });
        await run.save();
        return { kind: 'done', result: 'settled' };
      }
      case 'fail-turn':
      case 'reply':
      case 'repair':
      case 'reopen':
        // A user-facing flow's effects: an item's outcome never carries them.
        break;
    }
  }
  throw new Error(`The outcome '${execution.kind}' of plan item ${item.id} ended in no effect.`);
}

/** Inside a plan, alternatives are the plan's business (failure policy, replanning): retry once, then ask. */
async function recoverItem(
  run: PlanRun,
  current: ItemRun,
  reason: RecoveryReason,
): Promise<{ kind: 'done'; result: ItemResult } | { kind: 'again'; note?: string }> {
  const { turn } = run;
  const { item, flow, definition } = current;
  const action = recover({
    flow,
    spec: { ...definition, gatherContext: undefined },
    reason,
    canContemplate: false,
  });
  const why = reason.kind === 'uncertain' ? reason.reason : reason.problems.join(' ');
  observe(turn, 'recovery', { action: action.action, flow: flow.name, reason: why }, item.id);
  if (action.action === 'escalate') {
    // The answer comes back through the plan (routePlanMessage), which knows this item's generic flow.
    const question = action.question.question;
    observe(
      turn,
      'clarification',
      { kind: action.question.kind, question, level: action.question.level },
      item.id,
    );
    return {
      kind: 'done',
      result: await waitForUser(run, item, { kind: 'question', itemId: item.id, question }, question),
    };
  }
  update(turn, { type: 'recovery', flowId: flow.id, step: 'retry' });
  return action.action === 'retry' ? { kind: 'again', note: action.guidance } : { kind: 'again' };
}

/** Makes the item wait for the user; the turn ends after saving. */
export async function waitForUser(
  run: PlanRun,
  item: TodoItem,
  waiting: PlanWaiting,
  reply?: string,
): Promise<ItemResult> {
  setItemStatus(run, updateItem(run.plan.items, item.id, { status: 'waiting' }), item.id, 'in_progress');
  setPlan(run, { ...run.plan, waiting });
  if (reply) run.turn.replyParts.push({ text: reply });
  await run.save();
  return 'stop';
}
