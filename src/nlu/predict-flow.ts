/**
 * Flow prediction with the model's structured output over the flow catalog. An answer that does not
 * parse or names no known flow routes to `none` rather than failing the turn.
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { callModel } from '../loop/index.js';
import type { FlowSpec } from '../spec/index.js';
import type { Route } from './fast-path.js';

export const noFlow = 'none';

export interface PredictFlowOptions {
  model: LanguageModelV3;
  flows: readonly FlowSpec[];
  /** Recent conversation, ending with the user's message. */
  context: LanguageModelV3Prompt;
  stream?: boolean;
  signal?: AbortSignal;
}

export async function predictFlow(options: PredictFlowOptions): Promise<Route> {
  const names = options.flows.map((f) => f.name);
  const catalog = options.flows
    .map((f) => {
      const slots = f.slots
        .map((s) => `${s.name} (${s.type}${s.options ? `: ${s.options.join('|')}` : ''})`)
        .join(', ');
      return `- ${f.name}: ${f.description}${slots ? ` Slots: ${slots}.` : ''}`;
    })
    .join('\n');
  const system =
    "Route the user's latest message to one flow of this catalog, and extract slot values the message states.\n" +
    `${catalog}\n- ${noFlow}: nothing in the catalog fits.\n` +
    'Answer with JSON only: {"flow": "<name>", "slots": {"<slot>": <value>}}.';
  const response = await callModel({
    model: options.model,
    prompt: [{ role: 'system', content: system }, ...options.context],
    phase: 'predict',
    responseFormat: {
      type: 'json',
      name: 'route',
      schema: {
        type: 'object',
        properties: { flow: { type: 'string', enum: [...names, noFlow] }, slots: { type: 'object' } },
        required: ['flow'],
      },
    },
    ...(options.stream ? { stream: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return parseRoute(response.text, names);
}

function parseRoute(text: string, names: readonly string[]): Route {
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  try {
    const value = JSON.parse(json) as { flow?: unknown; slots?: unknown };
    const flow = typeof value.flow === 'string' && names.includes(value.flow) ? value.flow : noFlow;
    const slots =
      value.slots && typeof value.slots === 'object' && !Array.isArray(value.slots) ? value.slots : {};
    return { flow, slots: slots as Record<string, unknown>, source: 'model' };
  } catch {
    return { flow: noFlow, slots: {}, source: 'model' };
  }
}
