/**
 * The Plan policy's first decision (phase `plan`): the request becomes a TodoList. A proposal with
 * problems (a cycle, an unknown dependency, flow or tool …) is sent back once with every problem listed;
 * a second bad proposal fails the plan with a typed `PlanError`.
 */
import { z } from 'zod';
import { describePlanProblem, PlanError } from '../errors/index.js';
import type { TodoItem } from '../spec/index.js';
import type { IdGenerator } from '../util/index.js';
import { createTodoList } from './create-todo-list.js';
import { callStructured } from './internal/call-structured.js';
import { modelCallOptions, type PlanModelContext } from './plan-model-context.js';
import { describePlanCatalog, itemShape, type PlanCatalogView } from './plan-prompts.js';
import { type TodoItemDraft, todoItemDraftSchema } from './todo-item-draft.js';
import type { PlanCatalog } from './validate-todo-list.js';

export interface PlanProposal {
  title: string;
  drafts: TodoItemDraft[];
  items: TodoItem[];
  /** How many valid strategies the model sees; 2 or more asks for tree search. */
  strategies: number;
}

export const planProposalSchema = z.object({
  title: z.string().min(1).max(200),
  strategies: z.number().int().min(1).max(10).optional(),
  items: z.array(todoItemDraftSchema).min(1),
});

export interface ProposePlanOptions extends PlanModelContext {
  objective: string;
  catalogView: PlanCatalogView;
  catalog: PlanCatalog;
  ids: IdGenerator;
  maxItems: number;
  /** The Plan flow's own skill text: domain guidance for decomposing. */
  guidance?: string;
}

export async function proposePlan(options: ProposePlanOptions): Promise<PlanProposal> {
  const system = planningPrompt(options);
  let feedback: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await callStructured({
      ...modelCallOptions(options),
      system: feedback
        ? `${system}\n\nYour previous plan was rejected: ${feedback}\nSend a corrected plan.`
        : system,
      context: options.conversation,
      phase: 'plan',
      name: 'plan',
      schema: planProposalSchema,
    });
    if (!answer.ok) {
      feedback = answer.problem;
      continue;
    }
    try {
      const items = createTodoList(answer.value.items, {
        ids: options.ids,
        catalog: options.catalog,
        maxItems: options.maxItems,
      });
      return {
        title: answer.value.title,
        drafts: answer.value.items,
        items,
        strategies: answer.value.strategies ?? 1,
      };
    } catch (error) {
      if (!PlanError.isInstance(error)) throw error;
      feedback = error.problems.map(describePlanProblem).join('; ');
    }
  }
  throw new PlanError({ reason: 'invalid_plan', message: `No valid plan could be made: ${feedback}.` });
}

export function planningPrompt(
  options: Pick<ProposePlanOptions, 'persona' | 'objective' | 'catalogView' | 'maxItems' | 'guidance'>,
): string {
  return [
    options.persona,
    `You are planning. Objective: ${options.objective}`,
    'Decompose it into the fewest steps that fully achieve it, at most ' +
      `${options.maxItems}. Prefer a flow from the catalog for a step when one fits; otherwise make it a generic step ` +
      'that names the tools it must call (stepType "tool") or that only reasons over earlier results (stepType "reasoning"). ' +
      'Give each step a short id and list in dependsOn the steps whose results it needs.',
    options.guidance ? `[BEGIN_CUSTOM_GUIDANCE]\n${options.guidance}\n[END_CUSTOM_GUIDANCE]` : '',
    describePlanCatalog(options.catalogView),
    `Answer with JSON only: {"title": "<short title>", "strategies": <how many clearly different valid ways to do this you see>, "items": [${itemShape}]}.`,
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}
