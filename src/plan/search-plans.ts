/**
 * Tree search over decompositions (seed 001 LATS): besides the first proposal the model drafts one or
 * two different candidate plans (phase `plan-alternatives`), every valid candidate is scored against the
 * objective (phase `plan-score`), and the best one is kept. Invalid candidates and unusable answers fall
 * back to the first proposal, which is always a candidate.
 */
import { z } from 'zod';
import { PlanError } from '../errors/index.js';
import type { TodoItem } from '../spec/index.js';
import { createTodoList } from './create-todo-list.js';
import { callStructured } from './internal/call-structured.js';
import { modelCallOptions } from './plan-model-context.js';
import { itemShape } from './plan-prompts.js';
import { type PlanProposal, type ProposePlanOptions, planningPrompt } from './propose-plan.js';
import { todoItemDraftSchema } from './todo-item-draft.js';

export interface PlanCandidateScore {
  candidate: number;
  score: number;
  reason: string;
}

export interface PlanSearchResult {
  chosen: PlanProposal;
  candidates: { title: string; items: TodoItem[] }[];
  scores: PlanCandidateScore[];
  chosenIndex: number;
}

const alternativesSchema = z.object({
  candidates: z
    .array(z.object({ title: z.string().min(1), items: z.array(todoItemDraftSchema).min(1) }))
    .min(1),
});
const scoresSchema = z.object({
  scores: z.array(
    z.object({ candidate: z.number().int().min(0), score: z.number().min(0).max(10), reason: z.string() }),
  ),
});

/** Whether a first proposal warrants tree search. */
export function shouldSearchPlans(proposal: PlanProposal, minItems: number): boolean {
  return proposal.items.length >= minItems || proposal.strategies >= 2;
}

export async function searchPlans(
  first: PlanProposal,
  options: ProposePlanOptions & { candidates: 2 | 3 },
): Promise<PlanSearchResult> {
  const wanted = options.candidates - 1;
  const alternatives = await callStructured({
    ...modelCallOptions(options),
    system: `${planningPrompt(options)}\n\nA first plan was:\n${JSON.stringify({ title: first.title, items: first.drafts })}\nPropose ${wanted} clearly different alternative plan${wanted > 1 ? 's' : ''} (other orderings or other steps). Answer with JSON only: {"candidates": [{"title": "...", "items": [${itemShape}]}]}.`,
    context: options.conversation,
    phase: 'plan-alternatives',
    name: 'plan_alternatives',
    schema: alternativesSchema,
  });
  const proposals: PlanProposal[] = [first];
  for (const candidate of alternatives.ok ? alternatives.value.candidates.slice(0, wanted) : []) {
    try {
      const items = createTodoList(candidate.items, {
        ids: options.ids,
        catalog: options.catalog,
        maxItems: options.maxItems,
      });
      proposals.push({ title: candidate.title, drafts: candidate.items, items, strategies: 1 });
    } catch (error) {
      if (!PlanError.isInstance(error)) throw error;
    }
  }
  const view = proposals.map((p) => ({ title: p.title, items: p.items }));
  if (proposals.length === 1) return { chosen: first, candidates: view, scores: [], chosenIndex: 0 };
  const scored = await callStructured({
    ...modelCallOptions(options),
    system: [
      options.persona,
      `Score each candidate plan from 0 to 10 for how well and how cheaply it achieves the objective: ${options.objective}`,
      proposals
        .map(
          (p, index) =>
            `Candidate ${index}: ${p.title}\n${p.drafts.map((d) => `- ${d.description}${d.dependsOn?.length ? ` (after ${d.dependsOn.join(', ')})` : ''}`).join('\n')}`,
        )
        .join('\n\n'),
      'Answer with JSON only: {"scores": [{"candidate": <number>, "score": <0-10>, "reason": "<one line>"}]}.',
    ].join('\n\n'),
    context: options.conversation,
    phase: 'plan-score',
    name: 'plan_scores',
    schema: scoresSchema,
  });
  const scores = scored.ok ? scored.value.scores.filter((s) => s.candidate < proposals.length) : [];
  const chosenIndex = selectBestCandidate(proposals.length, scores);
  return { chosen: proposals[chosenIndex] as PlanProposal, candidates: view, scores, chosenIndex };
}

/** The index with the highest score; a candidate without a score counts 0; ties keep the earlier one. */
export function selectBestCandidate(count: number, scores: readonly PlanCandidateScore[]): number {
  let best = 0;
  let bestScore = -1;
  for (let index = 0; index < count; index++) {
    const own = scores.filter((s) => s.candidate === index).map((s) => s.score);
    const score = own.length > 0 ? Math.max(...own) : 0;
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  }
  return best;
}
