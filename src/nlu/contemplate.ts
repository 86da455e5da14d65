/**
 * `contemplate()` (seed 000/001): re-routing after a flow could not finish. It never picks the flow
 * that failed. A flow's declared `fallback` is taken without a model call; otherwise the model chooses
 * a simpler flow (phase `contemplate`) — or a Plan flow when the request needs several steps — or
 * nothing.
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { callModel } from '../loop/index.js';
import { composePrompt } from '../memory/index.js';
import type { FlowSpec } from '../spec/index.js';
import { describeCatalog, parseFlowChoice, routableFlows, routeAnswerShape, routeSchema } from './catalog.js';
import { noFlow } from './predict-flow.js';

export type Contemplation =
  | { kind: 'fallback'; flow: string; slots: Record<string, unknown>; source: 'declared' | 'model' }
  | { kind: 'plan'; flow: string; slots: Record<string, unknown> }
  | { kind: 'none' };

export async function contemplate(options: {
  model: LanguageModelV3;
  flows: ReadonlyMap<string, FlowSpec>;
  /** The flow that failed; never chosen. */
  exclude: string;
  /** The failed flow's declared fallback. */
  preferred?: string;
  /** Why the flow failed. */
  reason: string;
  context: LanguageModelV3Prompt;
  persona?: string;
  stream?: boolean;
  signal?: AbortSignal;
}): Promise<Contemplation> {
  if (options.preferred && options.preferred !== options.exclude && options.flows.has(options.preferred))
    return { kind: 'fallback', flow: options.preferred, slots: {}, source: 'declared' };
  const flows = routableFlows(options.flows.values(), [options.exclude]);
  if (flows.length === 0) return { kind: 'none' };
  const names = [...flows.map((f) => f.name), noFlow];
  const task =
    `The flow "${options.exclude}" could not finish: ${options.reason}\n` +
    'Choose a simpler flow that achieves part of what the user wants, a plan flow if the request needs several steps, ' +
    `or ${noFlow}.\n${describeCatalog(flows)}\n- ${noFlow}: nothing else fits.\n` +
    `Answer with JSON only: ${routeAnswerShape}.`;
  const response = await callModel({
    model: options.model,
    prompt: [
      {
        role: 'system',
        content: composePrompt({ persona: options.persona ?? 'You route messages for an assistant.', task }),
      },
      ...options.context,
    ],
    phase: 'contemplate',
    flow: options.exclude,
    responseFormat: {
      type: 'json',
      name: 'contemplation',
      schema: routeSchema(names, flows),
    },
    ...(options.stream ? { stream: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const choice = parseFlowChoice(response.text, names);
  if (!choice || choice.flow === noFlow) return { kind: 'none' };
  const spec = options.flows.get(choice.flow);
  if (spec?.intent === 'plan') return { kind: 'plan', flow: choice.flow, slots: choice.slots };
  return { kind: 'fallback', flow: choice.flow, slots: choice.slots, source: 'model' };
}
