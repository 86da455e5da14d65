/**
 * Runs one plan item as a sub-flow through PEX (seed 002 outer loop steps 2–4): `in_progress` is saved
 * before it runs; its skill sees the plan and every earlier step's output (as call-specific guidance)
 * and must call the item's required tools (the skill loop enforces them); a question, a confirmation, a
 * slot to fill or a suspended skill makes the item wait for the user; a waiting item resumes where it
 * stopped — a suspended run from its checkpoint, with the user's answer as the waiting call's result
 * (or, for `delegate_to_agent`, the remote task's result once the answer reached it).
 */
import type { LanguageModelV3Message } from '@ai-sdk/provider';
import { answerDelegation, delegateToAgentToolName } from '../../a2a/index.js';
import {
  type FlowDefinition,
  type InternalFlowRequest,
  toBackgroundFlows,
  toFlowDefinition,
  transitionDialogue,
} from '../../flow/index.js';
import { archiveSuspensions } from '../../hitl/index.js';
import {
  type ContinuedRun,
  continueSuspendedRun,
  describeSuspension,
  describeWaiting,
  suspendRun,
} from '../../hitl/resume/index.js';
import type { SkillLoopEvent, SkillLoopState } from '../../loop/index.js';
import { executeFlow, recover } from '../../policy/index.js';
import type {
  FlowInstance,
  JsonValue,
  PlanWaiting,
  SuspensionRecord,
  TodoItem,
  ToolCallResult,
} from '../../spec/index.js';
import {
  commitDialogue,
  dialogueOf,
  executionOptions,
  noteDialogue,
  observe,
  recordLoopEvents,
  update,
} from '../../turn/index.js';
import { describePlan, itemFlowSpec, renderStepOutputs, startItem, updateItem } from '../index.js';
import { type PlanRun, setItemStatus, setPlan, updatePlanItems } from './plan-run.js';
import { endFlow, pushSubFlow } from './plan-stack.js';
import { settlePlanItem } from './settle-plan-item.js';

export type ItemResult = 'settled' | 'stop' | 'synthesize';

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
  const top = turn.snapshot.stack.at(-1);
  const entered =
    top?.id === started.id
      ? top
      : pushSubFlow({
          turn,
          planId: run.plan.id,
          item: started,
          definition,
          maxDepth: run.limits.maxStackDepth,
        });
  if (typeof entered === 'string')
    return settlePlanItem(run, { item: started, status: 'failed', result: entered, events: [] });
  let flow: FlowInstance = entered;
  await run.save();

  let note = '';
  let resume: { messages: LanguageModelV3Message[]; state: SkillLoopState } | undefined;
  let carried: Extract<ContinuedRun, { kind: 'resume' }> | undefined;
  if (waiting?.kind === 'question')
    note = `You asked the user: "${waiting.question}". They answered: ${waiting.feedback ?? '(see the conversation)'}`;
  if (waiting?.kind === 'skill') {
    const continued = await continueSuspendedRun({
      run: waiting.run,
      turn,
      tools: run.tools,
      batch: { ...run.batch, turnId: started.runTurnId ?? turn.turnId },
      parentId: started.id,
      settleFeedback: (question, answer) => settleDelegation(run, started, question, answer),
    });
    if (continued.kind === 'waiting')
      return waitForUser(
        run,
        started,
        { kind: 'skill', itemId: started.id, run: continued.run },
        describeWaiting(continued.run),
      );
    if (continued.kind === 'declined')
      return settlePlanItem(run, { item: started, status: 'failed', result: continued.reason, events: [] });
    carried = continued;
    resume = continued.resume;
    archiveSuspensions(turn.snapshot, waiting.run.suspensions);
  }
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
    recordLoopEvents(turn, started.id, execution.events);
    turn.snapshot.scratchpad = execution.scratchpad;
    commitDialogue(turn, execution.state);
    const events = [...earlier, ...execution.events];
    switch (execution.kind) {
      case 'blocked':
        return settlePlanItem(run, {
          item: started,
          status: 'failed',
          result: execution.problems.map((p) => p.message).join(' '),
          events,
        });
      case 'ask':
        turn.snapshot.pending = execution.question;
        observe(
          turn,
          'clarification',
          {
            kind: execution.question.kind,
            slot: execution.question.slot,
            question: execution.question.question,
            level: execution.question.level,
          },
          started.id,
        );
        return waitForUser(run, started, { kind: 'slot', itemId: started.id });
      case 'completed': {
        if (execution.verify.length > 0)
          observe(turn, 'error', { phase: 'verify', problems: execution.verify }, started.id);
        scheduleInternalFlows(run, execution.schedule);
        const validation = execution.validation;
        if (validation && !validation.passed)
          return settlePlanItem(run, {
            item: started,
            status: 'failed',
            result: `The step ended without calling its required tools: ${validation.missing.join(', ')}.`,
            events,
          });
        return settlePlanItem(run, {
          item: started,
          status: 'completed',
          result: execution.outcome.data,
          events,
        });
      }
      case 'failed':
        return settlePlanItem(run, {
          item: started,
          status: 'failed',
          result: execution.outcome.message,
          events,
        });
      case 'uncertain': {
        // Inside a plan, alternatives are the plan's business (failure policy, replanning): retry once, then ask.
        const action = recover({
          flow,
          spec: { ...definition, gatherContext: undefined },
          reason: { kind: 'uncertain', reason: execution.outcome.reason },
          canContemplate: false,
        });
        observe(
          turn,
          'recovery',
          { action: action.action, flow: flow.name, reason: execution.outcome.reason },
          started.id,
        );
        if (action.action === 'escalate') {
          // The answer comes back through the plan (routePlanMessage), which knows this item's generic flow.
          const question = action.question.question;
          observe(
            turn,
            'clarification',
            { kind: action.question.kind, question, level: action.question.level },
            started.id,
          );
          return waitForUser(run, started, { kind: 'question', itemId: started.id, question }, question);
        }
        update(turn, { type: 'recovery', flowId: flow.id, step: 'retry' });
        flow = turn.snapshot.stack.find((f) => f.id === flow.id) ?? flow;
        note = action.action === 'retry' ? action.guidance : note;
        resume = undefined;
        continue;
      }
      case 'suspended': {
        turn.suspended = true;
        const suspended = suspendRun({
          flowId: started.id,
          runTurnId: started.runTurnId ?? turn.turnId,
          outcome: execution.outcome,
          events: execution.events,
          ...(execution.checkpoint ? { checkpoint: execution.checkpoint } : {}),
          ids: run.ids,
          now: turn.clock.now(),
          redact: run.batch.redact,
          ...(run.limits.approvalTtlMs !== undefined ? { approvalTtlMs: run.limits.approvalTtlMs } : {}),
          ...(carried ? { answered: carried.answered } : {}),
        });
        observe(
          turn,
          'suspended',
          { ...execution.outcome, suspensions: suspended.suspensions.map(describeSuspension) },
          started.id,
        );
        return waitForUser(
          run,
          started,
          { kind: 'skill', itemId: started.id, run: suspended },
          describeWaiting(suspended),
        );
      }
      case 'fallback': {
        // A hard-coded fallback re-targets the item: the old sub-flow goes, the item runs again as the target.
        const target = execution.target;
        observe(
          turn,
          'recovery',
          { action: 'hard-coded-fallback', flow: flow.name, to: target.flow, reason: target.reason },
          started.id,
        );
        endFlow(turn, flow.id, 'invalid');
        const retargeted = run.plan.items.map((i) =>
          i.id === started.id
            ? {
                ...i,
                flow: target.flow,
                slots: { ...i.slots, ...(target.slots as Record<string, JsonValue>) },
              }
            : i,
        );
        updatePlanItems(run, retargeted, 'fallback', { itemId: started.id, reason: target.reason });
        await run.save();
        return 'settled';
      }
    }
  }
}

/** Internal flows the item's `afterComplete` hook asked for; the flow loop starts them in the background. */
function scheduleInternalFlows(run: PlanRun, requests: readonly InternalFlowRequest[]): void {
  const internal = requests.filter((r) => run.flows.get(r.flow)?.intent === 'internal');
  if (internal.length === 0) return;
  const flows = toBackgroundFlows(internal, { ids: run.ids, existing: run.turn.snapshot.background ?? [] });
  run.turn.snapshot.background = transitionDialogue(dialogueOf(run.turn.snapshot), {
    type: 'schedule',
    flows,
  }).background;
  noteDialogue(run.turn);
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

/** Makes the item wait for the user; the turn ends after saving. */
async function waitForUser(
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

/**
 * An answer for `delegate_to_agent` goes to the remote agent's task (it asked through A2A
 * `input-required`); its result, or its next question, is the call's. Other feedback is the answer itself.
 */
async function settleDelegation(
  run: PlanRun,
  item: TodoItem,
  question: SuspensionRecord,
  answer: unknown,
): Promise<ToolCallResult | { ask: string } | undefined> {
  if (question.toolName !== delegateToAgentToolName || !run.delegation || !question.callId) return undefined;
  const outcome = await answerDelegation({
    ...run.delegation,
    idempotencyKey: `${run.turn.threadId}:${item.runTurnId ?? run.turn.turnId}:${question.callId}`,
    text: typeof answer === 'string' ? answer : JSON.stringify(answer),
    ...(run.signal ? { signal: run.signal } : {}),
  });
  if (outcome.status === 'input-required')
    return { ask: `Agent '${outcome.agentId}' asks: ${outcome.question}` };
  const base = { callId: question.callId, toolName: delegateToAgentToolName };
  if (outcome.status === 'failed') {
    const message = run.batch.redact.text(outcome.message);
    return {
      ...base,
      status: 'error',
      error: { category: 'server_error', message, retryable: false },
      contextText: `Error (server_error) from tool '${delegateToAgentToolName}': ${message}`,
    };
  }
  const output = {
    agentId: outcome.agentId,
    taskId: outcome.taskId,
    text: outcome.text,
    artifacts: outcome.artifacts,
  };
  const text = run.batch.redact.text(JSON.stringify(output));
  return {
    ...base,
    status: 'success',
    output: run.batch.redact.value(output),
    contextText: capText(text, run.batch.maxContextChars),
  };
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

function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…[${text.length - max} characters omitted]`;
}
