/**
 * The routing phase of a turn (DESIGN.md §1): the decision layer first (built-in fast paths and the
 * domain's rules, no model call), then the answer to a pending question, then the model's prediction.
 * A predicted flow is pushed on the stack (de-duplicated); a flow that was waiting for an answer stays
 * below it and asks again when it resumes — the user may change their mind mid-flow.
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { StackDepthError } from '../errors/index.js';
import { activeFlow, type FlowDefinition, transitionDialogue } from '../flow/index.js';
import type { HistoryMessage } from '../memory/index.js';
import type { PendingQuestion } from '../spec/index.js';
import {
  commitDialogue,
  dialogueOf,
  observe,
  scheduleBackgroundFlows,
  type TurnState,
  update,
} from '../turn/index.js';
import type { IdGenerator } from '../util/index.js';
import { cloneData, copyWith } from '../util/index.js';
import { decideBuiltIn, describeCatalogText } from './decide-built-in.js';
import { decidePendingAnswer } from './decide-pending-answer.js';
import { type Decision, decideRoute } from './decide-route.js';
import type { FastPathRule } from './fast-path.js';
import { answerFlow, noFlow, predictFlow } from './predict-flow.js';
import { routeInput } from './route-input.js';

export interface RouteTurnOptions {
  turn: TurnState;
  text: string;
  flows: ReadonlyMap<string, FlowDefinition>;
  rules: readonly FastPathRule[];
  model: LanguageModelV3;
  context: LanguageModelV3Prompt;
  /** Earlier messages of the thread (without the current one), oldest first. */
  history?: readonly HistoryMessage[];
  ids: IdGenerator;
  maxStackDepth: number;
  persona?: string;
  domain?: string;
  stream?: boolean;
  signal?: AbortSignal;
}

export async function routeTurn(options: RouteTurnOptions): Promise<void> {
  const { turn, text } = options;
  const snapshot = turn.snapshot;
  turn.dialogueStart ??= cloneData(dialogueOf(snapshot));
  const pending = snapshot.pending;
  const model = {
    model: options.model,
    context: options.context,
    ...(options.persona ? { persona: options.persona } : {}),
    ...(options.domain ? { domain: options.domain } : {}),
    ...(options.stream ? { stream: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  if (pending) {
    const decision = decideRoute({ text, rules: options.rules, flows: options.flows, pending });
    if (decision?.kind === 'built-in') return applyBuiltIn(options, decision, pending);
    if (decision?.kind === 'route') return pushRoute(options, decision);
    if (answerPending(options, pending, false)) return;
    const route = await predictFlow({
      ...model,
      flows: [...options.flows.values()],
      pendingQuestion: pending.question,
    });
    observe(turn, 'intent', {
      source: 'model',
      flow: route.flow,
      slots: route.slots,
      pending: pending.question,
    });
    if (route.flow === answerFlow) {
      if (!answerPending(options, pending, true, route.slots)) reask(turn, pending);
      return;
    }
    if (route.flow !== noFlow && options.flows.has(route.flow))
      return pushRoute(options, { kind: 'route', ...route }, false);
    return reask(turn, pending);
  }
  const decision = await routeInput(copyWith(model, { text, rules: options.rules, flows: options.flows }));
  if (decision.kind === 'built-in') return applyBuiltIn(options, decision, undefined);
  return pushRoute(options, decision);
}

/** Records what answers the pending question (`decidePendingAnswer`); false when the message is no answer. */
function answerPending(
  options: RouteTurnOptions,
  pending: PendingQuestion,
  confirmedByModel: boolean,
  labels: Record<string, unknown> = {},
): boolean {
  const { turn, text } = options;
  const snapshot = turn.snapshot;
  const flow = snapshot.stack.find((f) => f.id === pending.flowId);
  const spec = flow ? options.flows.get(flow.name) : undefined;
  if (!flow || !spec) {
    delete snapshot.pending;
    return false;
  }
  const answer = decidePendingAnswer({ pending, text, flow, spec, confirmedByModel, labels });
  switch (answer.kind) {
    case 'fill':
      delete snapshot.pending;
      update(turn, { type: 'fill-slots', flowId: flow.id, slots: answer.slots });
      observe(
        turn,
        'intent',
        { source: 'answer', flow: flow.name, slots: answer.slots, level: pending.level },
        flow.id,
      );
      return true;
    case 'clarified':
      delete snapshot.pending;
      observe(
        turn,
        'intent',
        { source: 'answer', flow: flow.name, level: pending.level, clarification: text },
        flow.id,
      );
      return true;
    case 'invalid':
      snapshot.pending = answer.question;
      observe(
        turn,
        'clarification',
        { slot: pending.slot, question: answer.question.question, level: 'specific' },
        flow.id,
      );
      return true;
    case 'none':
      return false;
  }
}

function reask(turn: TurnState, pending: PendingQuestion): void {
  turn.snapshot.pending = pending;
  observe(
    turn,
    'clarification',
    { slot: pending.slot, question: pending.question, level: pending.level },
    pending.flowId,
  );
}

function applyBuiltIn(
  options: RouteTurnOptions,
  decision: Extract<Decision, { kind: 'built-in' }>,
  pending: PendingQuestion | undefined,
): void {
  const { turn } = options;
  observe(turn, 'intent', {
    source: 'fast-path',
    builtIn: decision.builtIn,
    strategy: 'script',
    // A yes or no to a confirmation is recorded with the reason a refusal gave.
    ...(decision.builtIn === 'confirm' ? { answer: decision.answer } : {}),
    ...(decision.builtIn === 'confirm' && decision.answer === 'no' && decision.reason
      ? { reason: decision.reason }
      : {}),
  });
  const outcome = decideBuiltIn({
    decision,
    stack: turn.snapshot.stack,
    pending,
    flows: options.flows,
    history: options.history ?? [],
    diffs: turn.snapshot.diffs ?? [],
  });
  if (outcome.clearPending) delete turn.snapshot.pending;
  if (outcome.transition) update(turn, outcome.transition);
  if (outcome.reply !== undefined) turn.replyParts.push({ text: outcome.reply });
}

function pushRoute(
  options: RouteTurnOptions,
  decision: Extract<Decision, { kind: 'route' }>,
  announce = true,
): void {
  const { turn } = options;
  const snapshot = turn.snapshot;
  const definition = options.flows.get(decision.flow);
  // A flow whose policy is code is a SCRIPT whatever the model or a rule said.
  const strategy = definition?.run ? 'script' : decision.strategy;
  if (announce)
    observe(turn, 'intent', {
      source: decision.source,
      flow: decision.flow,
      slots: decision.slots,
      strategy,
    });
  if (decision.flow === noFlow || !definition) {
    if (!activeFlow(snapshot.stack)) turn.replyParts.push({ text: describeCatalogText(options.flows) });
    return;
  }
  // SUB_AGENT (seed 003): an Internal flow is delegated to the background rather than pushed; the reply
  // does not wait for it, and its result is in the scratchpad for the next turn.
  if (definition.intent === 'internal') {
    delegate(options, definition, decision.slots);
    return;
  }
  const { flow, rejected } = definition.fillSlotsByLabel(
    definition.create({ id: options.ids('flow') }),
    decision.slots,
  );
  const before = new Set(snapshot.stack.map((f) => f.id));
  try {
    commitDialogue(
      turn,
      transitionDialogue(
        dialogueOf(snapshot),
        { type: 'push', flow, intent: definition.intent },
        { maxDepth: options.maxStackDepth },
      ),
    );
  } catch (error) {
    if (!StackDepthError.isInstance(error)) throw error;
    // A refusal, not a question: the turn fails with the typed error on record, whatever question stands.
    turn.failed = true;
    observe(turn, 'error', {
      phase: 'route',
      ...error.toJSON(),
      maxDepth: error.maxDepth,
      flow: decision.flow,
    });
    turn.replyParts.push({
      text: `I cannot start "${definition.description}" now: ${error.message} Finish or cancel something first, or raise \`limits.maxStackDepth\`.`,
    });
    return;
  }
  delete snapshot.pending;
  const top = snapshot.stack.at(-1);
  if (!top) return;
  observe(
    turn,
    'flow-push',
    {
      flow: top.name,
      flowId: top.id,
      slots: top.slots,
      existing: before.has(top.id),
      ...(rejected.length > 0 ? { rejected } : {}),
    },
    top.id,
  );
}

/** Schedules the Internal flow with the router's slot labels (those its slots accept) and says so. */
function delegate(
  options: RouteTurnOptions,
  definition: FlowDefinition,
  slots: Record<string, unknown>,
): void {
  const { turn } = options;
  const { flow } = definition.fillSlotsByLabel(definition.create({ id: 'delegated' }), slots);
  scheduleBackgroundFlows(turn, [{ flow: definition.name, slots: flow.slots }], {
    flows: options.flows,
    ids: options.ids,
  });
  const what = definition.description.charAt(0).toLowerCase() + definition.description.slice(1);
  turn.replyParts.push({
    text: `I have started to ${what.replace(/\.$/, '')} in the background; the result will be there for your next message.`,
  });
}
