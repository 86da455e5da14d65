/**
 * Runs one plan item as a sub-flow (seed 002 outer loop steps 2–4): `in_progress` is saved before it
 * runs; its skill sees the plan and every earlier step's output; a step that skips its required tools
 * is sent back (TAEF, bounded); a question, a slot to fill or a suspended tool makes the item wait for
 * the user; a waiting item resumes where it stopped, with the user's answer as the suspended call's
 * result (or, for `delegate_to_agent`, the remote task's result once the answer reached it).
 */
import type { LanguageModelV3Message, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { answerDelegation, delegateToAgentToolName } from '../a2a/index.js';
import { StackDepthError } from '../errors/index.js';
import { activeFlow, fillSlotsByLabel, pushFlow } from '../flow/index.js';
import type { SkillLoopEvent } from '../loop/index.js';
import {
  describePlan,
  itemFlowSpec,
  missingRequiredTools,
  renderStepOutputs,
  startItem,
  updateItem,
} from '../plan/index.js';
import { executeFlow, recover } from '../policy/index.js';
import type { FlowInstance, FlowSpec, JsonValue, PlanWaiting, TodoItem } from '../spec/index.js';
import { type PlanRun, setItemStatus, setPlan } from './plan-run.js';
import { recordSkillEvents } from './record-skill-events.js';
import { settlePlanItem } from './settle-plan-item.js';
import { observe, record } from './turn-state.js';

export type ItemResult = 'settled' | 'stop' | 'synthesize';

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

  let resume: LanguageModelV3Message[] = [];
  let note = '';
  if (waiting?.kind === 'question')
    note = `You asked the user: "${waiting.question}". They answered: ${waiting.feedback ?? '(see the conversation)'}`;
  if (waiting?.kind === 'tool') {
    const completion = await completeSuspendedCall(run, started, waiting);
    if (completion.kind === 'waiting')
      return waitForUser(
        run,
        started,
        { ...waiting, reason: completion.reason, feedback: undefined },
        completion.reason,
      );
    resume = completion.messages;
  }
  // Calls made before a suspension (and the suspended call, now completed) count for this item too.
  const events: SkillLoopEvent[] = resultsIn(resume);
  let enforcements = run.execution.enforcementRetries;
  for (;;) {
    const execution = await executeFlow({
      flow,
      spec,
      tools: run.tools,
      model: run.model,
      persona: run.persona,
      context: [planContext(run, started, note), ...run.context, ...resume],
      batch: { ...run.batch, turnId: started.runTurnId ?? turn.turnId },
      maxIterations: run.execution.maxIterations,
      ...(run.stream ? { stream: true } : {}),
      ...(run.signal ? { signal: run.signal } : {}),
    });
    if (execution.kind === 'blocked')
      return settlePlanItem(run, {
        item: started,
        status: 'failed',
        result: execution.problems.join(' '),
        events,
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
    events.push(...execution.loop.events);
    const { outcome } = execution;
    if (outcome.outcome === 'success') {
      const missing = started.stepType === 'tool' ? missingRequiredTools(started.requiredTools, events) : [];
      if (missing.length === 0)
        return settlePlanItem(run, {
          item: started,
          status: 'completed',
          result: outcome.data,
          events,
          scratchpad: outcome.scratchpadEntries,
        });
      if (enforcements === 0)
        return settlePlanItem(run, {
          item: started,
          status: 'failed',
          result: `The step ended without calling its required tools: ${missing.join(', ')}.`,
          events,
        });
      enforcements -= 1;
      observe(turn, 'error', { phase: 'enforcement', missing, retriesLeft: enforcements }, started.id);
      resume = [
        ...resume,
        ...execution.loop.messages,
        {
          role: 'user',
          content: [
            {
              type: 'text',
              text: `You answered without calling ${missing.join(', ')}. Call ${missing.length > 1 ? 'them' : 'it'} now and use the real result; never invent a tool's result.`,
            },
          ],
        },
      ];
    } else if (outcome.outcome === 'failure') {
      return settlePlanItem(run, { item: started, status: 'failed', result: outcome.message, events });
    } else if (outcome.outcome === 'uncertain') {
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
    } else {
      turn.suspended = true;
      observe(
        turn,
        'suspended',
        { callId: outcome.callId, toolName: outcome.toolName, reason: outcome.reason },
        started.id,
      );
      const messages = [...resume, ...execution.loop.messages] as unknown as JsonValue[];
      return waitForUser(
        run,
        started,
        {
          kind: 'tool',
          itemId: started.id,
          callId: outcome.callId,
          toolName: outcome.toolName,
          reason: outcome.reason,
          messages,
        },
        `Waiting for you: ${outcome.reason}`,
      );
    }
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

type Completion = { kind: 'done'; messages: LanguageModelV3Message[] } | { kind: 'waiting'; reason: string };

/**
 * Completes a suspended call from the user's answer: for `delegate_to_agent` the answer goes to the
 * remote task and its result becomes the call's result; for any other tool the answer is the result.
 */
async function completeSuspendedCall(
  run: PlanRun,
  item: TodoItem,
  waiting: Extract<PlanWaiting, { kind: 'tool' }>,
): Promise<Completion> {
  const feedback = waiting.feedback ?? '';
  let text = `The user answered: ${feedback}`;
  let isError = false;
  if (waiting.toolName === delegateToAgentToolName && run.delegation) {
    const outcome = await answerDelegation({
      ...run.delegation,
      idempotencyKey: `${run.turn.threadId}:${item.runTurnId}:${waiting.callId}`,
      text: feedback,
      ...(run.signal ? { signal: run.signal } : {}),
    });
    if (outcome.status === 'input-required')
      return { kind: 'waiting', reason: `Agent '${outcome.agentId}' asks: ${outcome.question}` };
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
  record(run.turn, 'tool-result', {
    flowId: item.id,
    callId: waiting.callId,
    toolName: waiting.toolName,
    status: isError ? 'error' : 'success',
    contextText: text,
  });
  observe(run.turn, 'resumed', { callId: waiting.callId, toolName: waiting.toolName }, item.id);
  observe(
    run.turn,
    'tool-execution',
    { callId: waiting.callId, toolName: waiting.toolName, status: isError ? 'error' : 'success' },
    item.id,
  );
  const messages = (waiting.messages as unknown as LanguageModelV3Message[]).map((message) =>
    message.role !== 'tool'
      ? message
      : {
          ...message,
          content: message.content.map((part) =>
            part.type === 'tool-result' && part.toolCallId === waiting.callId
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
  return { kind: 'done', messages };
}

/** Tool results carried in resumed messages, as loop events (not recorded again). */
function resultsIn(messages: readonly LanguageModelV3Message[]): SkillLoopEvent[] {
  return messages.flatMap((message) =>
    message.role !== 'tool'
      ? []
      : message.content.flatMap((part): SkillLoopEvent[] =>
          part.type !== 'tool-result' || (part.output.type !== 'text' && part.output.type !== 'error-text')
            ? []
            : [
                {
                  type: 'tool-result',
                  result:
                    part.output.type === 'text'
                      ? {
                          status: 'success',
                          callId: part.toolCallId,
                          toolName: part.toolName,
                          output: part.output.value,
                          contextText: part.output.value,
                        }
                      : {
                          status: 'error',
                          callId: part.toolCallId,
                          toolName: part.toolName,
                          error: { category: 'server_error', message: part.output.value, retryable: false },
                          contextText: part.output.value,
                        },
                },
              ],
        ),
  );
}

function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…[${text.length - max} characters omitted]`;
}
