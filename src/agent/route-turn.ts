/**
 * The routing phase of a turn: an answer to a pending question fills its slot; otherwise the message is
 * routed (fast path or model) and the predicted flow is pushed on the stack.
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { StackDepthError } from '../errors/index.js';
import { activeFlow, checkSlotValue, fillSlotsByLabel, pushFlow } from '../flow/index.js';
import { type FastPathRule, noFlow, routeInput } from '../nlu/index.js';
import type { FlowInstance, FlowSpec } from '../spec/index.js';
import type { IdGenerator } from '../util/index.js';
import { observe, type TurnState } from './turn-state.js';

export interface RouteTurnOptions {
  turn: TurnState;
  text: string;
  flows: ReadonlyMap<string, FlowSpec>;
  rules: readonly FastPathRule[];
  model: LanguageModelV3;
  context: LanguageModelV3Prompt;
  ids: IdGenerator;
  maxStackDepth: number;
  stream?: boolean;
  signal?: AbortSignal;
}

export async function routeTurn(options: RouteTurnOptions): Promise<void> {
  const { turn } = options;
  const snapshot = turn.snapshot;
  const pending = snapshot.pending;
  if (pending) {
    const flow = snapshot.stack.find((f) => f.id === pending.flowId);
    const spec = flow ? options.flows.get(flow.name) : undefined;
    const slot = spec?.slots.find((s) => s.name === pending.slot);
    if (flow && slot) {
      delete snapshot.pending;
      const check = checkSlotValue(slot, options.text);
      if (check.ok) {
        snapshot.stack = snapshot.stack.map((f) =>
          f.id === flow.id ? { ...f, slots: { ...f.slots, [slot.name]: check.value } } : f,
        );
        observe(turn, 'intent', { source: 'answer', flow: flow.name, slot: slot.name }, flow.id);
      } else {
        turn.replyParts.push({ text: `That ${slot.description.toLowerCase()} ${check.problem}.` });
      }
      return;
    }
    delete snapshot.pending;
  }
  const route = await routeInput({
    text: options.text,
    rules: options.rules,
    model: options.model,
    flows: [...options.flows.values()],
    context: options.context,
    ...(options.stream ? { stream: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const spec = options.flows.get(route.flow);
  observe(turn, 'intent', { source: route.source, flow: route.flow, slots: route.slots });
  if (route.flow === noFlow || !spec) {
    if (!activeFlow(snapshot.stack)) {
      const catalog = [...options.flows.values()].map((f) => `- ${f.description}`).join('\n');
      turn.replyParts.push({ text: `I can help with:\n${catalog}` });
    }
    return;
  }
  const instance = fillSlotsByLabel(
    spec,
    { id: options.ids('flow'), name: spec.name, status: 'active', slots: {}, retries: 0 },
    route.slots,
  );
  const before = new Set(snapshot.stack.map((f) => f.id));
  try {
    snapshot.stack = pushFlow(snapshot.stack, instance, { maxDepth: options.maxStackDepth });
  } catch (error) {
    if (!StackDepthError.isInstance(error)) throw error;
    turn.failed = true;
    turn.replyParts.push({
      text: `I cannot start "${spec.description}" now: ${error.message} Finish or cancel something first.`,
    });
    return;
  }
  const top = snapshot.stack.at(-1) as FlowInstance;
  observe(
    turn,
    'flow-push',
    { flow: top.name, flowId: top.id, slots: top.slots, existing: before.has(top.id) },
    top.id,
  );
}
