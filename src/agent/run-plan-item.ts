/**
 * Runs one plan item as a sub-flow (seed 002 outer loop steps 2–4): `in_progress` is saved before it
 * runs; its skill sees the plan and every earlier step's output and must call the item's required tools
 * (the skill loop enforces them); a question, a slot to fill or a suspended skill makes the item wait for
 * the user; a waiting item resumes where it stopped — a suspended run from its checkpoint, with the
 * user's answer as the waiting call's result (or, for `delegate_to_agent`, the remote task's result once
 * the answer reached it).
 */
import type { LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { answerDelegation, delegateToAgentToolName } from '../a2a/index.js';
import { StackDepthError } from '../errors/index.js';
import { activeFlow, fillSlotsByLabel, pushFlow } from '../flow/index.js';
import { resumeSkillLoopState, type SkillLoopEvent, type SkillLoopState } from '../loop/index.js';
import { describePlan, itemFlowSpec, renderStepOutputs, startItem, updateItem } from '../plan/index.js';
import { executeFlow, recover } from '../policy/index.js';
import type { FlowInstance, FlowSpec, JsonValue, PlanWaiting, TodoItem } from '../spec/index.js';
import { type PlanRun, setItemStatus, setPlan } from './plan-run.js';
import { recordSkillEvents } from './record-skill-events.js';
import { settlePlanItem } from './settle-plan-item.js';
import { observe, record } from './turn-state.js';

export type ItemResult = 'settled' | 'stop' | 'synthesize';

type SkillWaiting = Extract<PlanWaiting, { kind: 'skill' }>;

export async function runPlanItem(run: PlanRun, item: TodoItem): Promise<ItemResult> {
  const { turn } = run;
  const waiting = run.plan.waiting?.itemId === item.id ? run.plan.waiting : undefined;
  setItemStatus(run, startItem(run.plan.items, item.id, turn.turnId), item.id, item.status);
  const started = run.plan.items.find((i) => i.id === item.id) as TodoItem;
  const { waiting: _cleared, ...rest } = run.plan;
  setPlan(run, rest);
  const spec = itemFlowSpec(started, started.flow ? run.flows.get(started.flow) : undefined, extraTools(run));
  let flow = enterSubFlow(run, started, spec);
  if (typeof flow === 'string')
    return settlePlanItem(run, { item: started, status: 'failed', result: flow, events: [] });
  await run.save();

  let note = '';
  let resume: { messages: LanguageModelV3Message[]; state: SkillLoopState } | undefined;
  if (waiting?.kind === 'question')
    note = `You asked the user: "${waiting.question}". They answered: ${waiting.feedback ?? '(see the conversation)'}`;
  if (waiting?.kind === 'skill') {
    const resumed = await resumeSuspendedRun(run, started, waiting);
    if (resumed.kind === 'waiting') return waitForUser(run, started, resumed.waiting, resumed.waiting.reason);
    if (resumed.kind === 'declined')
      return settlePlanItem(run, { item: started, status: 'failed', result: resumed.reason, events: [] });
    resume = resumed.resume;
  }
  // Results of calls made before a suspension belong to this item's output too.
  const earlier = resultsIn(resume?.messages ?? []);
  for (;;) {
    const execution = await executeFlow({
      flow,
      spec,
      tools: run.tools,
      model: run.model,
      persona: run.persona,
      context: [planContext(run, started, note), ...run.context],
      batch: { ...run.batch, turnId: started.runTurnId ?? turn.turnId },
      maxIterations: run.execution.maxIterations,
      limits: { enforcementRetries: run.execution.enforcementRetries },
      ...(started.stepType === 'tool' ? { requiredTools: started.requiredTools } : {}),
      ...(resume ? { resume } : {}),
      ...(run.stream ? { stream: true } : {}),
      ...(run.signal ? { signal: run.signal } : {}),
    });
    if (execution.kind === 'blocked')
      return settlePlanItem(run, {
        item: started,
        status: 'failed',
        result: execution.problems.join(' '),
        events: earlier,
      });
    if (execution.kind === 'ask') {
      turn.snapshot.pending = execution.question;
      observe(
        turn,
        'clarification',
        { slot: execution.question.slot, question: execution.question.question },
        started.id,
      );
      return waitForUser(run, started, { kind: 'slot', itemId: started.id });
    }
    recordSkillEvents(turn, execution.loop.events, started.id);
    const events = [...earlier, ...execution.loop.events];
    const { outcome } = execution;
    if (outcome.outcome === 'success') {
      const validation = execution.loop.validation;
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
        result: outcome.data,
        events,
        scratchpad: outcome.scratchpadEntries,
      });
    }
    if (outcome.outcome === 'failure')
      return settlePlanItem(run, { item: started, status: 'failed', result: outcome.message, events });
    if (outcome.outcome === 'uncertain') {
      const action = recover(flow, outcome);
      if (action.action === 'escalate')
        return waitForUser(
          run,
          started,
          { kind: 'question', itemId: started.id, question: action.question },
          action.question,
        );
      flow = { ...flow, retries: flow.retries + 1 };
      const retried = flow;
      turn.snapshot.stack = turn.snapshot.stack.map((f) => (f.id === retried.id ? retried : f));
      resume = undefined;
      continue;
    }
    turn.suspended = true;
    observe(turn, 'suspended', { ...outcome }, started.id);
    const suspended: SkillWaiting = {
      kind: 'skill',
      itemId: started.id,
      suspension: outcome.kind,
      reason: outcome.reason,
      messages: execution.loop.messages as unknown as JsonValue[],
      state: execution.loop.state as unknown as JsonValue,
    };
    if (outcome.kind === 'tool' || outcome.kind === 'escalate') {
      suspended.callId = outcome.callId;
      suspended.toolName = outcome.toolName;
    }
    return waitForUser(run, started, suspended, `Waiting for you: ${outcome.reason}`);
  }
}

function extraTools(run: PlanRun): string[] {
  return run.execution.delegation && run.tools.has(delegateToAgentToolName) ? [delegateToAgentToolName] : [];
}

/** The item's sub-flow on top of the stack (already there when the item resumes), or why it cannot be. */
function enterSubFlow(run: PlanRun, item: TodoItem, spec: FlowSpec): FlowInstance | string {
  const { turn } = run;
  const top = activeFlow(turn.snapshot.stack);
  if (top?.id === item.id) return top;
  const instance = fillSlotsByLabel(
    spec,
    { id: item.id, name: spec.name, status: 'active', slots: {}, planId: run.plan.id, retries: 0 },
    item.slots ?? {},
  );
  try {
    turn.snapshot.stack = pushFlow(turn.snapshot.stack, instance, { maxDepth: run.limits.maxStackDepth });
  } catch (error) {
    if (!StackDepthError.isInstance(error)) throw error;
    return error.message;
  }
  observe(
    turn,
    'flow-push',
    { flow: instance.name, flowId: instance.id, slots: instance.slots, planId: run.plan.id },
    item.id,
  );
  return instance;
}

/** The plan, the step and the earlier steps' outputs, as a system message after the skill's own. */
function planContext(run: PlanRun, item: TodoItem, note: string): LanguageModelV3Prompt[number] {
  const earlier = [...run.outputs.values()].filter((e) => e.itemId !== item.id);
  const parts = [
    `You are carrying out step ${item.id} of a plan: ${item.description}`,
    item.expectedOutcome ? `Expected outcome: ${item.expectedOutcome}` : '',
    describePlan(run.plan),
    `Results of earlier steps:\n${renderStepOutputs(earlier)}`,
    note,
  ];
  return { role: 'system', content: parts.filter((p) => p !== '').join('\n\n') };
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

type Resumed =
  | { kind: 'resume'; resume: { messages: LanguageModelV3Message[]; state: SkillLoopState } }
  | { kind: 'waiting'; waiting: SkillWaiting }
  | { kind: 'declined'; reason: string };

/**
 * Continues a suspended run with the user's answer. A waiting call is completed, never executed again
 * (DESIGN.md invariant 6): for `delegate_to_agent` the answer goes to the remote task and its result
 * is the call's result; for any other call the answer is the result. A run that asked whether to go on
 * goes on unless the answer says no.
 */
async function resumeSuspendedRun(run: PlanRun, item: TodoItem, waiting: SkillWaiting): Promise<Resumed> {
  const feedback = waiting.feedback ?? '';
  const messages = waiting.messages as unknown as LanguageModelV3Message[];
  const state = resumeSkillLoopState(waiting.state as unknown as SkillLoopState, {
    now: run.turn.clock.now(),
    confirmed: waiting.suspension === 'confirm-continue' || waiting.suspension === 'user-stop',
  });
  if (waiting.callId === undefined || waiting.toolName === undefined) {
    if (/^\s*(no|stop|cancel|don't|do not)\b/i.test(feedback))
      return { kind: 'declined', reason: `The user chose not to go on: ${feedback}` };
    return { kind: 'resume', resume: { messages, state } };
  }
  let text = `The user answered: ${feedback}`;
  let isError = false;
  if (waiting.toolName === delegateToAgentToolName && run.delegation) {
    const outcome = await answerDelegation({
      ...run.delegation,
      idempotencyKey: `${run.turn.threadId}:${item.runTurnId}:${waiting.callId}`,
      text: feedback,
      ...(run.signal ? { signal: run.signal } : {}),
    });
    if (outcome.status === 'input-required') {
      const reason = `Agent '${outcome.agentId}' asks: ${outcome.question}`;
      const { feedback: _answered, ...still } = waiting;
      return { kind: 'waiting', waiting: { ...still, reason } };
    }
    isError = outcome.status === 'failed';
    text =
      outcome.status === 'completed'
        ? JSON.stringify({
            agentId: outcome.agentId,
            taskId: outcome.taskId,
            text: outcome.text,
            artifacts: outcome.artifacts,
          })
        : `Error (server_error) from tool '${delegateToAgentToolName}': ${outcome.message}`;
  }
  text = capText(run.batch.redact.text(text), run.batch.maxContextChars);
  const { callId, toolName } = waiting;
  record(run.turn, 'tool-result', {
    flowId: item.id,
    callId,
    toolName,
    status: isError ? 'error' : 'success',
    contextText: text,
  });
  observe(run.turn, 'resumed', { callId, toolName }, item.id);
  observe(run.turn, 'tool-execution', { callId, toolName, status: isError ? 'error' : 'success' }, item.id);
  const completed = messages.map((message) =>
    message.role !== 'tool'
      ? message
      : {
          ...message,
          content: message.content.map((part) =>
            part.type === 'tool-result' && part.toolCallId === callId
              ? {
                  ...part,
                  output: isError
                    ? { type: 'error-text' as const, value: text }
                    : { type: 'text' as const, value: text },
                }
              : part,
          ),
        },
  );
  const succeededTools = isError ? state.succeededTools : [...new Set([...state.succeededTools, toolName])];
  return { kind: 'resume', resume: { messages: completed, state: { ...state, succeededTools } } };
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
