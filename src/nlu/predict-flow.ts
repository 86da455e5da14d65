/**
 * Flow prediction with the model's structured output over the flow catalog (phase `predict`). While a
 * question is pending, the choice `answer` means the message answers it. An answer that does not parse
 * or names no known flow is asked again once, with the reason; a second such answer routes to `none`
 * rather than failing the turn.
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { callModel } from '../loop/index.js';
import { composePrompt } from '../memory/index.js';
import type { FlowSpec } from '../spec/index.js';
import { describeCatalog, parseFlowChoice, routableFlows, routeAnswerShape, routeSchema } from './catalog.js';
import { type Route, strategyOf } from './fast-path.js';

export const noFlow = 'none';
/** The prediction that the message answers the pending question. */
export const answerFlow = 'answer';

export interface PredictFlowOptions {
  model: LanguageModelV3;
  flows: readonly FlowSpec[];
  /** Recent conversation, ending with the user's message. */
  context: LanguageModelV3Prompt;
  persona?: string;
  domain?: string;
  /** The question the agent asked last, when one is pending. */
  pendingQuestion?: string;
  stream?: boolean;
  signal?: AbortSignal;
}

export async function predictFlow(options: PredictFlowOptions): Promise<Route> {
  const flows = routableFlows(options.flows);
  const names = flows.map((f) => f.name);
  const choices = [...names, noFlow, ...(options.pendingQuestion ? [answerFlow] : [])];
  const task =
    "Route the user's latest message to one flow of this catalog, and extract slot values the message states.\n" +
    `${describeCatalog(flows)}\n- ${noFlow}: nothing in the catalog fits.\n` +
    (options.pendingQuestion
      ? `- ${answerFlow}: the message answers your pending question "${options.pendingQuestion}".\n`
      : '') +
    `Answer with JSON only: ${routeAnswerShape}.`;
  const prompt: LanguageModelV3Prompt = [
    {
      role: 'system',
      content: composePrompt({
        persona: options.persona ?? 'You route messages for an assistant.',
        ...(options.domain ? { domain: options.domain } : {}),
        task,
      }),
    },
    ...options.context,
  ];
  const ask = (messages: LanguageModelV3Prompt) =>
    callModel({
      model: options.model,
      prompt: messages,
      phase: 'predict',
      responseFormat: { type: 'json', name: 'route', schema: routeSchema(choices, flows) },
      ...(options.stream ? { stream: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  const first = await ask(prompt);
  let choice = parseFlowChoice(first.text, choices);
  if (!choice && first.text.trim() !== '') {
    // A model not held to the schema may misspell a flow or answer in prose: one more try, told why.
    const retry = await ask([
      ...prompt,
      { role: 'assistant', content: [{ type: 'text', text: first.text }] },
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: `That answer names no flow of the catalog. Answer with JSON only: ${routeAnswerShape}, where flow is one of: ${choices.join(', ')}.`,
          },
        ],
      },
    ]);
    choice = parseFlowChoice(retry.text, choices);
  }
  if (!choice) return { flow: noFlow, slots: {}, source: 'model' };
  const intent = flows.find((f) => f.name === choice.flow)?.intent;
  return { ...choice, source: 'model', ...(intent ? { strategy: strategyOf(intent) } : {}) };
}
