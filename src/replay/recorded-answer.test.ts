import type { LanguageModelV3Usage } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { decodeRecordedAnswer, encodeRecordedAnswer, type RecordedAnswer } from './recorded-answer.js';

const usage: LanguageModelV3Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function answer(overrides: Partial<RecordedAnswer> = {}): RecordedAnswer {
  return {
    fingerprint: '4:110:#9bfca8c2b8ef:text',
    content: [
      { type: 'tool-call', toolCallId: 'call_2', toolName: 'upper', input: '{"text":"step \\"1\\""}' },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    ...overrides,
  };
}

describe('recorded answers', () => {
  it('store usage of the usual shape as its seven counts, and read the answer back whole', () => {
    const text = encodeRecordedAnswer(answer());
    const { usage: _usage, ...rest } = answer();
    expect(text).toBe(JSON.stringify({ ...rest, usage: [10, 10, 0, null, 5, 5, 0] }));
    expect(text.length).toBeLessThan(JSON.stringify(answer()).length);
    expect(decodeRecordedAnswer(text)).toEqual(answer());
  });

  it('read rows written with usage as two objects, as the previous version wrote them', () => {
    expect(decodeRecordedAnswer(JSON.stringify(answer()))).toEqual(answer());
  });

  it.each([
    ['raw usage', { ...usage, raw: { prompt_tokens: 10 } }],
    ['an unknown count', { ...usage, inputTokens: { ...usage.inputTokens, audio: 3 } }],
    [
      'a count that is not a number',
      { ...usage, outputTokens: { ...usage.outputTokens, total: Number.NaN } },
    ],
  ])('store usage with %s as it is', (_, odd) => {
    const recorded = answer({ usage: odd as LanguageModelV3Usage });
    const text = encodeRecordedAnswer(recorded);
    expect(text).toBe(JSON.stringify(recorded));
    expect(decodeRecordedAnswer(text)).toEqual(JSON.parse(JSON.stringify(recorded)));
  });
});
