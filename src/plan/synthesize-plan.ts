/**
 * Synthesis (seed 002 stage 5, phase `synthesize`): the answer is written from the completed and failed
 * items and their full outputs, with the main content kept apart from metadata for a UI (sources,
 * suggested next questions). A model that answers in prose instead of JSON still gives the content; one
 * that answers nothing gets a plain account of what each step did.
 */
import { z } from 'zod';
import { createReplyFieldReader } from '../loop/index.js';
import type { PlanState, PlanSynthesis } from '../spec/index.js';
import { callStructured } from './internal/call-structured.js';
import { modelCallOptions, type PlanModelContext } from './plan-model-context.js';
import { describePlan } from './plan-prompts.js';

const synthesisSchema = z.object({
  content: z.string().min(1),
  sources: z.array(z.string()).max(32).optional(),
  suggestedQuestions: z.array(z.string()).max(8).optional(),
});

export interface SynthesizePlanOptions extends PlanModelContext {
  plan: PlanState;
  /** The step outputs as a prompt section. */
  outputs: string;
  /**
   * Receives the answer's `content` as the model writes it (trimmed as the reply is), when the call streams.
   * A synthesis that is not JSON is not passed on.
   */
  onContentDelta?: (delta: string) => void;
}

export async function synthesizePlan(options: SynthesizePlanOptions): Promise<PlanSynthesis> {
  const failed = options.plan.items.filter((i) => i.status === 'failed');
  const system = [
    options.persona,
    `Write the final answer to the objective from the results of the plan's steps. Objective: ${options.plan.objective}`,
    failed.length > 0
      ? `Some steps failed (${failed.map((i) => i.id).join(', ')}): say plainly what could not be done.`
      : '',
    describePlan(options.plan),
    `Step outputs:\n${options.outputs}`,
    'Answer with JSON only: {"content": "<the answer for the user>", "sources": ["<where facts came from>"], "suggestedQuestions": ["<natural follow-up questions>"]}.',
  ]
    .filter((part) => part !== '')
    .join('\n\n');
  const onContentDelta = options.onContentDelta;
  const readContent = onContentDelta ? createReplyFieldReader('content') : undefined;
  const answer = await callStructured({
    ...modelCallOptions(options),
    ...(onContentDelta && readContent
      ? {
          onTextDelta: (delta: string) => {
            const piece = readContent(delta);
            if (piece !== '') onContentDelta(piece);
          },
        }
      : {}),
    system,
    context: options.conversation,
    phase: 'synthesize',
    name: 'synthesis',
    schema: synthesisSchema,
  });
  if (answer.ok)
    return {
      content: answer.value.content,
      sources: answer.value.sources ?? [],
      suggestedQuestions: answer.value.suggestedQuestions ?? [],
    };
  const content =
    answer.text !== '' && !answer.text.startsWith('{')
      ? answer.text
      : options.plan.items
          .filter((i) => i.status === 'completed' || i.status === 'failed')
          .map((i) => `- ${i.description}: ${i.status === 'failed' ? 'failed — ' : ''}${i.summary ?? 'done'}`)
          .join('\n');
  return { content, sources: [], suggestedQuestions: [] };
}
