/**
 * How a skill ends: the model calls `finish_skill` with its outcome (seed 000 output contract). A
 * terminal tool rather than free-form JSON because tool arguments are schema-checked by the provider
 * and by us, arrive separate from prose, and work with every tool-calling model; a plain text answer
 * with no tool call is also accepted as success (docs/decisions/0002-skill-outcome-terminal-tool.md).
 */
import type { LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import { z } from 'zod';
import type { SkillOutcome } from '../spec/index.js';

/** The name of the terminal tool. */
export const finishSkillToolName = 'finish_skill';

const finishInput = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('success'),
    data: z.unknown().optional(),
    summary: z.string().optional(),
    scratchpadEntries: z.array(z.string()).max(5).optional(),
  }),
  z.object({ outcome: z.literal('failure'), message: z.string(), partialData: z.unknown().optional() }),
  z.object({
    outcome: z.literal('uncertain'),
    reason: z.string(),
    context: z.record(z.string(), z.unknown()).optional(),
  }),
]);

/** The tool as offered to the model. */
export const finishSkillTool: LanguageModelV3FunctionTool = {
  type: 'function',
  name: finishSkillToolName,
  description:
    'Call once when the task is done or cannot be done. outcome "success" with the result in data (and a one-line summary); ' +
    '"failure" with a message saying what failed; "uncertain" with the reason when you need the user to clarify.',
  inputSchema: {
    type: 'object',
    properties: {
      outcome: { type: 'string', enum: ['success', 'failure', 'uncertain'] },
      data: {},
      summary: { type: 'string' },
      scratchpadEntries: { type: 'array', items: { type: 'string' }, maxItems: 5 },
      message: { type: 'string' },
      partialData: {},
      reason: { type: 'string' },
      context: { type: 'object' },
    },
    required: ['outcome'],
  },
};

/** Reads the model's `finish_skill` arguments; a problem comes back as text for the model to fix. */
export function parseFinishSkill(
  inputText: string,
): { ok: true; outcome: SkillOutcome } | { ok: false; problem: string } {
  let raw: unknown;
  try {
    raw = inputText.trim() === '' ? {} : JSON.parse(inputText);
  } catch {
    return { ok: false, problem: 'finish_skill arguments are not valid JSON.' };
  }
  const parsed = finishInput.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`)
      .join('; ');
    return { ok: false, problem: `finish_skill arguments are invalid: ${issues}` };
  }
  const value = parsed.data;
  if (value.outcome === 'success') {
    const data = value.data ?? (value.summary !== undefined ? { summary: value.summary } : {});
    return {
      ok: true,
      outcome: { outcome: 'success', data, scratchpadEntries: value.scratchpadEntries ?? [] },
    };
  }
  if (value.outcome === 'failure') {
    return {
      ok: true,
      outcome: {
        outcome: 'failure',
        errorCategory: 'server_error',
        message: value.message,
        partialData: value.partialData ?? null,
      },
    };
  }
  return { ok: true, outcome: { outcome: 'uncertain', reason: value.reason, context: value.context ?? {} } };
}
