/**
 * Runs one plan item as a sub-flow through PEX (seed 002 outer loop steps 2–4): `in_progress` is saved
 * before it runs; its skill sees the plan and every earlier step's output (as call-specific guidance)
 * and must call the item's required tools (the skill loop enforces them); a question, a confirmation, a
 * slot to fill or a suspended skill makes the item wait for the user; a waiting item resumes where it
 * stopped — a suspended run from its checkpoint, with the user's answer as the waiting call's result
 * (or, for `delegate_to_agent`, the remote task's result once the answer reached it).
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import { delegateToAgentToolName } from '../../a2a/index.js';
import { type FlowDefinition, toFlowDefinition } from '../../flow/index.js';
import { archiveSuspensions } from '../../hitl/index.js';
import { type ContinuedRun, continueSuspendedRun, describeWaiting } from '../../hitl/resume/index.js';
import type { SkillLoopEvent } from '../../loop/index.js';
import { applyExecution, executeFlow } from '../../policy/index.js';
import type { FlowInstance, PlanWaiting, SuspendedRun, TodoItem } from '../../spec/index.js';
import { commitDialogue, dialogueOf, executionOptions, recordLoopEvents } from '../../turn/index.js';
import { describePlan, itemFlowSpec, renderStepOutputs, startItem } from '../index.js';
import { carryOut, type ItemResult, waitForUser } from './carry-out-item.js';

export type { ItemResult } from './carry-out-item.js';

import { type PlanRun, setItemStatus, setPlan } from './plan-run.js';
import { pushSubFlow } from './plan-stack.js';
import { settleDelegation } from './settle-delegation.js';
import { settlePlanItem } from './settle-plan-item.js';

export async function runPlanItem(run: PlanRun, item: TodoItem): Promise<ItemResult> {
  // The item's model and tool calls nest under its span (DESIGN.md §8: turn → flow → plan item → call).
  const span = run.telemetry?.startPlanItem({
    id: item.id,
    description: item.description,
    planId: run.plan.id,
  });
  try {
    const result = await runItemSteps(run, item);
    span?.end({ status: run.plan.items.find((i) => i.id === item.id)?.status ?? result });
    return result;
  } catch (error) {
    span?.end({ status: 'failed', error });
    throw error;
  }
}

async function runItemSteps(run: PlanRun, item: TodoItem): Promise<ItemResult> {
  const { turn } = run;
  const waiting = run.plan.waiting?.itemId === item.id ? run.plan.waiting : undefined;
  setItemStatus(run, startItem(run.plan.items, item.id, turn.turnId), item.id, item.status);
  const started = run.plan.items.find((i) => i.id === item.id) as TodoItem;
  const definition = itemDefinition(run, started);
  const entered = enterItem(run, started, definition);
  if (typeof entered === 'string')
    return settlePlanItem(run, { item: started, status: 'failed', result: entered, events: [] });
  let flow: FlowInstance = entered;
  await run.save();

  let note = '';
  if (waiting?.kind === 'question')
    note = `You asked the user: "${waiting.question}". They answered: ${waiting.feedback ?? '(see the conversation)'}`;
  const continued =
    waiting?.kind === 'skill' ? await continueWaitingItem(run, started, waiting.run) : undefined;
  if (continued !== undefined && continued.kind !== 'resume') return continued.result;
  const carried = continued?.carried;
  let resume = carried?.resume;
  // The answer is used: a crash from here on re-runs the item, it does not answer again. (Until here the
  // waiting record stays saved, so a crash while the answer travels resumes the same call.)
  const { waiting: _answered, ...rest } = run.plan;
  setPlan(run, rest);
  // Results of calls made before a suspension belong to this item's output too.
  const earlier = resultsIn(resume?.messages ?? []);
  for (;;) {
    const execution = await executeFlow({
      // The item runs within the skill loop's bounds for its definition's complexity (the turn's execution).
      ...executionOptions(run, {
        state: dialogueOf(turn.snapshot),
        flow,
        definition,
        scratchpad: turn.snapshot.scratchpad,
        guidance: planGuidance(run, started, note),
      }),
      // Keyed by the turn that first ran the item: a re-run after a crash meets its journaled calls.
      batch: { ...run.batch, turnId: started.runTurnId ?? turn.turnId, ...carried?.batch },
      ...(started.stepType === 'tool' ? { requiredTools: started.requiredTools } : {}),
      ...(resume ? { resume } : {}),
    });
    recordLoopEvents(turn, started.id, execution.events, run.batch.redact);
    turn.snapshot.scratchpad = execution.scratchpad;
    const applied = applyExecution(execution, { place: 'item', flow, intent: definition.intent });
    commitDialogue(turn, applied.state);
    const events = [...earlier, ...execution.events];
    const next = await carryOut(
      run,
      { item: started, definition, flow, events, execution, carried },
      applied.effects,
    );
    if (next.kind === 'done') return next.result;
    flow = turn.snapshot.stack.find((f) => f.id === flow.id) ?? flow;
    note = next.note ?? note;
    resume = undefined;
  }
}

/** The item's sub-flow: on top already (a re-run after a crash or an answer), or pushed now; or why not. */
function enterItem(run: PlanRun, item: TodoItem, definition: FlowDefinition): FlowInstance | string {
  const top = run.turn.snapshot.stack.at(-1);
  if (top?.id === item.id) return top;
  return pushSubFlow({
    turn: run.turn,
    planId: run.plan.id,
    item,
    definition,
    maxDepth: run.limits.maxStackDepth,
  });
}

/**
 * An item whose skill run waited for people goes on from its checkpoint once every question is answered
 * (an answer for `delegate_to_agent` goes on to the remote task first); still waiting, or declined, it ends here.
 */
async function continueWaitingItem(
  run: PlanRun,
  item: TodoItem,
  waiting: SuspendedRun,
): Promise<
  | { kind: 'resume'; carried: Extract<ContinuedRun, { kind: 'resume' }> }
  | { kind: 'done'; result: ItemResult }
> {
  const { turn } = run;
  const continued = await continueSuspendedRun({
    run: waiting,
    turn,
    tools: run.tools,
    batch: { ...run.batch, turnId: item.runTurnId ?? turn.turnId },
    parentId: item.id,
    settleFeedback: (question, answer) => settleDelegation(run, item, question, answer),
  });
  if (continued.kind === 'waiting') {
    const next: PlanWaiting = { kind: 'skill', itemId: item.id, run: continued.run };
    return { kind: 'done', result: await waitForUser(run, item, next, describeWaiting(continued.run)) };
  }
  if (continued.kind === 'declined')
    return {
      kind: 'done',
      result: await settlePlanItem(run, { item, status: 'failed', result: continued.reason, events: [] }),
    };
  archiveSuspensions(turn.snapshot, waiting.suspensions);
  return { kind: 'resume', carried: continued };
}

/** The item's flow definition: its own flow's (with the plan's tools added), or a generic step's. */
function itemDefinition(run: PlanRun, item: TodoItem): FlowDefinition {
  const own = item.flow ? run.flows.get(item.flow) : undefined;
  const extra =
    run.execution.delegation && run.tools.has(delegateToAgentToolName) ? [delegateToAgentToolName] : [];
  const spec = itemFlowSpec(item, own, extra);
  return own ? { ...own, tools: spec.tools } : toFlowDefinition(spec);
}

/** The plan, the step and the earlier steps' outputs: the step's call-specific guidance. */
function planGuidance(run: PlanRun, item: TodoItem, note: string): string {
  const earlier = [...run.outputs.values()].filter((e) => e.itemId !== item.id);
  return [
    `You are carrying out step ${item.id} of a plan: ${item.description}`,
    item.expectedOutcome ? `Expected outcome: ${item.expectedOutcome}` : '',
    describePlan(run.plan),
    `Results of earlier steps:\n${renderStepOutputs(earlier)}`,
    note,
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}

/** Tool results carried in a resumed transcript, as loop events for the step output (not recorded again). */
function resultsIn(messages: readonly LanguageModelV3Message[]): SkillLoopEvent[] {
  return messages.flatMap((message) =>
    message.role !== 'tool'
      ? []
      : message.content.flatMap((part): SkillLoopEvent[] => {
          if (part.type !== 'tool-result') return [];
          const value =
            part.output.type === 'text' || part.output.type === 'error-text' ? part.output.value : '';
          const base = { callId: part.toolCallId, toolName: part.toolName, contextText: value };
          return [
            {
              type: 'tool-result',
              result:
                part.output.type === 'error-text'
                  ? {
                      ...base,
                      status: 'error',
                      error: { category: 'server_error', message: value, retryable: false },
                    }
                  : { ...base, status: 'success', output: value },
            },
          ];
        }),
  );
}
