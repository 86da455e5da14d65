import type { LanguageModelV3Usage } from '@ai-sdk/provider';
import type { ScriptUsage } from '../script-step.js';

/** Token counts of one scripted answer; `reasoning` is part of `output`. */
export interface TokenCounts {
  input: number;
  output: number;
  reasoning: number;
  /** Of `input`, what the cache served and what was written to it; none when left out. */
  cacheRead?: number;
  cacheWrite?: number;
}

/** About one token per four characters: close enough for budgets and usage reports in tests. */
export function estimateTokens(characters: number): number {
  return Math.ceil(characters / 4);
}

/**
 * The step's numbers, else the model's defaults, else estimates from the characters of prompt and
 * output. Reasoning tokens are estimated from the reasoning text and never exceed the output total.
 */
export function countTokens(options: {
  usage: ScriptUsage | undefined;
  defaultUsage: ScriptUsage | undefined;
  promptCharacters: number;
  output: { total: number; reasoning: number };
}): TokenCounts {
  const input = options.usage?.inputTokens ?? options.defaultUsage?.inputTokens;
  const output = options.usage?.outputTokens ?? options.defaultUsage?.outputTokens;
  const total = output ?? estimateTokens(options.output.total);
  return {
    input: input ?? estimateTokens(options.promptCharacters),
    output: total,
    reasoning: Math.min(estimateTokens(options.output.reasoning), total),
    cacheRead: options.usage?.cacheReadTokens ?? 0,
    cacheWrite: options.usage?.cacheWriteTokens ?? 0,
  };
}

/** The V3 usage shape; the cached part of the input is what the step says (nothing by default). */
export function toV3Usage(counts: TokenCounts): LanguageModelV3Usage {
  return {
    inputTokens: {
      total: counts.input,
      noCache: Math.max(0, counts.input - (counts.cacheRead ?? 0) - (counts.cacheWrite ?? 0)),
      cacheRead: counts.cacheRead ?? 0,
      cacheWrite: counts.cacheWrite ?? 0,
    },
    outputTokens: {
      total: counts.output,
      text: counts.output - counts.reasoning,
      reasoning: counts.reasoning,
    },
  };
}
