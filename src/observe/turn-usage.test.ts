import { describe, expect, it } from 'vitest';
import { countTokens, createUsageTally } from './turn-usage.js';

describe('turn usage', () => {
  it('adds the parts of the input when a provider gives no total, and counts what it left out as 0', () => {
    expect(
      countTokens({
        inputTokens: { total: undefined, noCache: 10, cacheRead: 30, cacheWrite: undefined },
        outputTokens: { total: 7, text: 5, reasoning: 2 },
      }),
    ).toEqual({
      inputTokens: 40,
      outputTokens: 7,
      cacheReadTokens: 30,
      cacheWriteTokens: 0,
      reasoningTokens: 2,
    });
  });

  it('sums per model and in total, and prices only when every model has a price', () => {
    const calls = (tally: ReturnType<typeof createUsageTally>) => {
      const counts = {
        inputTokens: 1_000,
        outputTokens: 100,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
      };
      tally.add('small', counts);
      tally.add('small', counts);
      tally.add('large', counts);
    };
    const unpriced = createUsageTally({ small: { input: 1, output: 2 } });
    calls(unpriced);
    const total = unpriced.total();
    expect(total).toMatchObject({ inputTokens: 3_000, outputTokens: 300, modelCalls: 3 });
    expect(total.byModel.small).toMatchObject({ inputTokens: 2_000, modelCalls: 2, cost: 0.0024 });
    expect(total.byModel.large?.cost).toBeUndefined();
    expect(total.cost).toBeUndefined();

    const priced = createUsageTally({ small: { input: 1, output: 2 }, large: { input: 10, output: 20 } });
    calls(priced);
    expect(priced.total().cost).toBeCloseTo(0.0024 + 0.012, 12);
  });
});
