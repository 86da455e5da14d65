/**
 * How a skill ends: the model calls `finish_skill` with its outcome (seed 000 output contract). A
 * terminal tool rather than free-form JSON because tool arguments are schema-checked by the provider
 * and by us, arrive separate from prose, and work with every tool-calling model; a plain text answer
 * with no tool call is also accepted as success (docs/decisions/0002-skill-outcome-terminal-tool.md).
 * `message` is the reply the user reads, for every outcome; `data` is the structured result for the
 * display frame (docs/decisions/0059-the-reply-is-written-for-the-user.md).
 */
import type { LanguageModelV3FunctionTool } from '@ai-sdk/provider';
import { z } from 'zod';
import type { SkillOutcome } from '../spec/index.js';

/** The name of the terminal tool. */
export const finishSkillToolName = 'finish_skill';

const finishInput = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('success'),
    message: z.string().optional(),
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
    'Call once when the task is done or cannot be done. outcome "success" with message, the reply the user reads ' +
    '(plain words, never JSON), and any structured result in data; "failure" with a message saying what failed; ' +
    '"uncertain" with the reason (a question for the user) when you need the user to clarify.',
  inputSchema: {
    type: 'object',
    properties: {
      outcome: { type: 'string', enum: ['success', 'failure', 'uncertain'] },
      message: {
        type: 'string',
        description:
          'The reply the user reads, in plain words: for "success" the answer itself, for "failure" what failed.',
      },
      data: {
        description: 'The structured result, shown beside the reply (tables, records); not read aloud.',
      },
      summary: { type: 'string', description: 'A one-line summary for later steps.' },
      scratchpadEntries: { type: 'array', items: { type: 'string' }, maxItems: 5 },
      partialData: {},
      reason: { type: 'string', description: 'For "uncertain": the question the user must answer.' },
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
    // Models often put the answer in `summary` rather than `message`; either is the user's reply.
    const message = nonEmpty(value.message) ?? nonEmpty(value.summary);
    // With no data the words are the result, as with a plain text answer.
    const data =
      value.data ??
      (value.summary !== undefined
        ? { summary: value.summary }
        : message !== undefined
          ? { text: message }
          : {});
    return {
      ok: true,
      outcome: {
        outcome: 'success',
        data,
        ...(message !== undefined ? { message } : {}),
        scratchpadEntries: value.scratchpadEntries ?? [],
      },
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

function nonEmpty(text: string | undefined): string | undefined {
  return text !== undefined && text.trim() !== '' ? text.trim() : undefined;
}
