/**
 * The reflection pass (seed 000) for flows flagged as creative or complex: generate → evaluate the
 * candidate against the flow's success criteria → at most one revision. The evaluation is one model
 * call (phase `skill-evaluate`) asking for a JSON verdict; an evaluation that fails or cannot be read
 * lets the candidate through rather than blocking a finished skill.
 */
import type { JSONSchema7 } from '@ai-sdk/provider';
import { z } from 'zod';
import { awaitWithin } from './await-within.js';
import { invokeModel } from './call-model.js';
import { deadlines, emit, type SkillRun, touch } from './internal/skill-run.js';
import { loopNote } from './skill-messages.js';

export type ReflectionVerdict = { verdict: 'pass' | 'skipped' } | { verdict: 'revise'; issues: string[] };

const verdictSchema = z.object({ pass: z.boolean(), issues: z.array(z.string()).max(10).default([]) });

const verdictJsonSchema: JSONSchema7 = {
  type: 'object',
  properties: { pass: { type: 'boolean' }, issues: { type: 'array', items: { type: 'string' } } },
  // Strict under every provider (ADR 0058): every key required, no others.
  required: ['pass', 'issues'],
  additionalProperties: false,
};

/** Asks the model whether the candidate meets the success criteria. */
export async function evaluateCandidate(run: SkillRun, candidate: unknown): Promise<ReflectionVerdict> {
  const question =
    `Evaluate this result against the success criteria before it is returned.\n` +
    `Success criteria:\n${run.successCriteria ?? ''}\n\nResult:\n${JSON.stringify(candidate, null, 2)}\n\n` +
    'Answer with JSON: {"pass": true} if every criterion is met, else {"pass": false, "issues": ["…"]} naming each unmet criterion.';
  run.state.turns += 1;
  const within = await awaitWithin({
    ...deadlines(run),
    work: (signal) =>
      invokeModel({
        model: run.model,
        prompt: [...run.prompt, ...run.messages, loopNote('evaluation', question)],
        phase: 'skill-evaluate',
        ...(run.flow ? { flow: run.flow } : {}),
        responseFormat: { type: 'json', schema: verdictJsonSchema, name: 'evaluation' },
        signal,
      }),
  });
  const verdict = readVerdict(
    within.status === 'done' && within.value.ok ? within.value.response.text : undefined,
  );
  if (within.status === 'done' && within.value.ok) {
    touch(run);
    run.state.inputTokens += within.value.response.inputTokens;
    run.state.outputTokens += within.value.response.outputTokens;
  }
  emit(run, {
    type: 'reflection-pass',
    verdict: verdict.verdict,
    issues: verdict.verdict === 'revise' ? verdict.issues : [],
  });
  return verdict;
}

/** What the model is told when the evaluation asks for a revision. */
export function revisionPrompt(issues: readonly string[]): string {
  return (
    'Not final yet: checked against the success criteria, the result has these issues:\n' +
    issues.map((i) => `- ${i}`).join('\n') +
    '\nRevise it once (use the tools if you need to), then finish again with the revised result.'
  );
}

function readVerdict(text: string | undefined): ReflectionVerdict {
  if (text === undefined) return { verdict: 'skipped' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { verdict: 'skipped' };
  }
  const parsed = verdictSchema.safeParse(raw);
  if (!parsed.success) return { verdict: 'skipped' };
  if (parsed.data.pass) return { verdict: 'pass' };
  const issues =
    parsed.data.issues.length > 0 ? parsed.data.issues : ['The evaluation found the criteria unmet.'];
  return { verdict: 'revise', issues };
}
