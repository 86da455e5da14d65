/**
 * What a turn's model calls used, as `TurnResult.usage` shows it: tokens in and out, the cached part of
 * the input, per turn and per model; and, when the agent has a price table for every model it called,
 * what that cost (docs/decisions/0082-genai-telemetry-and-turn-usage.md).
 */
import type { LanguageModelV3Usage } from '@ai-sdk/provider';
import { copyWith } from '../util/index.js';

/** Token counts of one or more model calls. Cache counts are part of `inputTokens`, as providers bill them. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache. */
  cacheReadTokens: number;
  /** Input tokens written to the provider's prompt cache. */
  cacheWriteTokens: number;
  /** Output tokens spent on reasoning, where the provider reports them (part of `outputTokens`). */
  reasoningTokens: number;
  /** How many model calls these counts add up. */
  modelCalls: number;
  /** In the price table's currency; only when every model counted here has a price. */
  cost?: number;
}

/** A turn's usage: its totals and the same counts per model id. */
export interface TurnUsage extends TokenUsage {
  byModel: Record<string, TokenUsage>;
}

/** Prices of one model per million tokens, in one currency of your choice. Cache prices default to `input`. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** Prices by model id (`gpt-4.1-mini`, `claude-sonnet-4-5` …), as the model reports its `modelId`. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** The counts of one call, read from the AI SDK's usage; a count the provider left out is 0. */
export function countTokens(usage: LanguageModelV3Usage): Omit<TokenUsage, 'modelCalls' | 'cost'> {
  const { inputTokens, outputTokens } = usage;
  const cacheReadTokens = inputTokens.cacheRead ?? 0;
  const cacheWriteTokens = inputTokens.cacheWrite ?? 0;
  const input = inputTokens.total ?? (inputTokens.noCache ?? 0) + cacheReadTokens + cacheWriteTokens;
  return {
    inputTokens: input,
    outputTokens: outputTokens.total ?? 0,
    cacheReadTokens,
    cacheWriteTokens,
    reasoningTokens: outputTokens.reasoning ?? 0,
  };
}

/** Adds calls up, turn-wide and per model. */
export interface UsageTally {
  add(modelId: string, counts: Omit<TokenUsage, 'modelCalls' | 'cost'>): void;
  total(): TurnUsage;
}

export function createUsageTally(prices?: PriceTable): UsageTally {
  const byModel = new Map<string, TokenUsage>();
  return {
    add(modelId, counts) {
      const sum = byModel.get(modelId) ?? emptyUsage();
      sum.inputTokens += counts.inputTokens;
      sum.outputTokens += counts.outputTokens;
      sum.cacheReadTokens += counts.cacheReadTokens;
      sum.cacheWriteTokens += counts.cacheWriteTokens;
      sum.reasoningTokens += counts.reasoningTokens;
      sum.modelCalls += 1;
      byModel.set(modelId, sum);
    },
    total() {
      const total: TurnUsage = copyWith(emptyUsage(), { byModel: {} });
      let priced = prices !== undefined;
      let cost = 0;
      for (const [modelId, sum] of byModel) {
        const model: TokenUsage = { ...sum };
        const price = prices && Object.hasOwn(prices, modelId) ? prices[modelId] : undefined;
        if (price) {
          model.cost = priceOf(sum, price);
          cost += model.cost;
        } else priced = false;
        total.byModel[modelId] = model;
        total.inputTokens += sum.inputTokens;
        total.outputTokens += sum.outputTokens;
        total.cacheReadTokens += sum.cacheReadTokens;
        total.cacheWriteTokens += sum.cacheWriteTokens;
        total.reasoningTokens += sum.reasoningTokens;
        total.modelCalls += sum.modelCalls;
      }
      // A total that leaves out a model without a price would look cheaper than the turn was.
      if (priced) total.cost = cost;
      return total;
    },
  };
}

function emptyUsage(): TokenUsage {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    modelCalls: 0,
  };
}

/** Cached input is billed at its own price; the rest of the input at the input price. */
function priceOf(usage: TokenUsage, price: ModelPrice): number {
  const uncached = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  const perToken =
    uncached * price.input +
    usage.cacheReadTokens * (price.cacheRead ?? price.input) +
    usage.cacheWriteTokens * (price.cacheWrite ?? price.input) +
    usage.outputTokens * price.output;
  return perToken / 1_000_000;
}
