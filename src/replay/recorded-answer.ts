/**
 * The stored form of a model answer in the journal (see `record-model-calls.ts`): the JSON of its
 * fingerprint, content, finish reason and token usage.
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
  return JSON.stringify(answer);
}

/**
 * The answer a journal row holds. The previous version wrote usage as a list of its seven counts; a turn
 * it left interrupted is resumed with those rows, so the list is read back into the V3 shape.
 */
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
