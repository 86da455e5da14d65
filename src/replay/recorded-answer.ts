/**
 * The stored form of a model answer in the journal (see `record-model-calls.ts`): the JSON of its
 * fingerprint, content, finish reason and token usage. Usage of the usual shape (the seven counts of the
 * V3 usage and nothing else) is stored as the list of its counts: as two nested objects it was a third of
 * every answer's text, kept for the whole turn (docs/decisions/0064).
 */
import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';

export interface RecordedAnswer {
  fingerprint: string;
  content: LanguageModelV3Content[];
  finishReason: LanguageModelV3FinishReason;
  usage: LanguageModelV3Usage;
}

export function encodeRecordedAnswer(answer: RecordedAnswer): string {
  const counts = usageCounts(answer.usage);
  return JSON.stringify(counts ? { ...answer, usage: counts } : answer);
}

/** The answer a journal row holds, with usage in the V3 shape whichever way it was stored. */
export function decodeRecordedAnswer(text: string): RecordedAnswer {
  const answer = JSON.parse(text) as Omit<RecordedAnswer, 'usage'> & { usage: unknown };
  const usage = answer.usage;
  if (!Array.isArray(usage) || usage.length !== 7) return answer as RecordedAnswer;
  const count = (index: number): number | undefined => {
    const value: unknown = usage[index];
    return typeof value === 'number' ? value : undefined;
  };
  return {
    ...answer,
    usage: {
      inputTokens: { total: count(0), noCache: count(1), cacheRead: count(2), cacheWrite: count(3) },
      outputTokens: { total: count(4), text: count(5), reasoning: count(6) },
    },
  };
}

const inputKeys = ['total', 'noCache', 'cacheRead', 'cacheWrite'] as const;
const outputKeys = ['total', 'text', 'reasoning'] as const;

/**
 * The seven counts in order (`null` for one left out), or `undefined` when the usage holds anything else
 * (raw usage, another key, a count that is not a finite number), which is then stored as it is.
 */
function usageCounts(usage: LanguageModelV3Usage): (number | null)[] | undefined {
  const { inputTokens: input, outputTokens: output, ...rest } = usage;
  if (Object.keys(rest).length > 0 || typeof input !== 'object' || typeof output !== 'object')
    return undefined;
  if (!hasOnly(input, inputKeys) || !hasOnly(output, outputKeys)) return undefined;
  const counts = [...inputKeys.map((key) => input[key]), ...outputKeys.map((key) => output[key])];
  if (!counts.every((count) => count === undefined || (typeof count === 'number' && Number.isFinite(count))))
    return undefined;
  return counts.map((count) => count ?? null);
}

function hasOnly(value: object | null, keys: readonly string[]): boolean {
  return value !== null && Object.keys(value).every((key) => keys.includes(key));
}
