/**
 * The stored form of a model answer in the journal (see `record-model-calls.ts`): JSON of its fingerprint,
 * content, finish reason and token usage. Usage of the usual shape (the seven counts of the V3 usage, no
 * raw usage) is stored as a list of the seven counts instead of two nested objects: it is a third of every
 * answer's text, and serializing it took as long as the content. Any other usage is stored as it is, and
 * rows written with the object form are read as before (docs/decisions/0045-lighter-turn-records.md).
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

/** `JSON.stringify(answer)`, but for usage of the usual shape, which is written as its seven counts. */
export function encodeRecordedAnswer(answer: RecordedAnswer): string {
  const counts = usageCounts(answer.usage);
  if (counts === undefined) return JSON.stringify(answer);
  return `{"fingerprint":${JSON.stringify(answer.fingerprint)},"content":${JSON.stringify(answer.content)},"finishReason":${JSON.stringify(answer.finishReason)},"usage":[${counts}]}`;
}

/** The answer a journal row holds, with usage in the V3 shape whichever way it was written. */
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
 * The seven counts as JSON list items (`null` for a count left out), or `undefined` when the usage has
 * anything else: raw usage, another key, a count that is not a finite number.
 */
function usageCounts(usage: LanguageModelV3Usage | undefined): string | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const input = usage.inputTokens;
  const output = usage.outputTokens;
  if (typeof input !== 'object' || input === null || typeof output !== 'object' || output === null)
    return undefined;
  let text = '';
  for (const key of inputKeys) {
    const part = countText(input[key]);
    if (part === undefined) return undefined;
    text += text === '' ? part : `,${part}`;
  }
  for (const key of outputKeys) {
    const part = countText(output[key]);
    if (part === undefined) return undefined;
    text += `,${part}`;
  }
  // Each key must be one of the known ones: a count under an unknown name would be lost.
  for (const key in input) if (!(inputKeys as readonly string[]).includes(key)) return undefined;
  for (const key in output) if (!(outputKeys as readonly string[]).includes(key)) return undefined;
  for (const key in usage) if (key !== 'inputTokens' && key !== 'outputTokens') return undefined;
  return text;
}

function countText(value: unknown): string | undefined {
  if (value === undefined) return 'null';
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}
