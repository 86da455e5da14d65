/**
 * The AI SDK language model versions flowstack runs on: specification v3 (AI SDK 6) and v4 (AI SDK 7).
 * Both share the calls flowstack makes (`doGenerate`, `doStream`), the usage object and the finish
 * reason; a v2 model (AI SDK 5) reports usage and finish reasons in another shape, so a turn on it would
 * count zero tokens and never see why the model stopped — it is refused at start-up instead.
 */
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { ConfigurationError } from '../errors/index.js';

/**
 * An AI SDK 7 language model (specification v4), as far as `createAgent` needs to know it. flowstack
 * makes the calls itself — text, tool calls and tool results, which v4 spells as v3 does — and reads
 * the results like v3 results: the usage and finish reason objects have the same fields. (The call
 * options are `never` here because v4's file parts differ from v3's; flowstack sends none.)
 */
export interface LanguageModelV4Like {
  readonly specificationVersion: 'v4';
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: unknown;
  doGenerate(options: never): PromiseLike<unknown>;
  doStream(options: never): PromiseLike<unknown>;
}

/** A language model `createAgent` accepts: AI SDK 6 (v3) or AI SDK 7 (v4). */
export type SupportedLanguageModel = LanguageModelV3 | LanguageModelV4Like;

/** The specification versions accepted. */
export const supportedModelVersions: readonly string[] = ['v3', 'v4'];

/** What is wrong with the model's version, or `undefined` when it is accepted. */
export function checkModelVersion(model: unknown): string | undefined {
  const record = typeof model === 'object' && model !== null ? (model as Record<string, unknown>) : undefined;
  const version = record?.specificationVersion;
  if (typeof version === 'string' && supportedModelVersions.includes(version)) return undefined;
  const name =
    typeof record?.provider === 'string' && typeof record.modelId === 'string'
      ? `"${record.provider}/${record.modelId}"`
      : 'given';
  const install =
    'install AI SDK 6 or later provider packages (npm install ai@^6 and @ai-sdk/openai@^3, @ai-sdk/anthropic@^3 … ' +
    'or their AI SDK 7 releases)';
  if (typeof version !== 'string')
    return `model: the model ${name} has no specificationVersion; pass an AI SDK language model (v3 or v4): ${install}`;
  return (
    `model: the model ${name} implements the AI SDK language model specification ${version}` +
    `${version === 'v2' ? ' (AI SDK 5)' : ''}; flowstack accepts v3 (AI SDK 6) and v4 (AI SDK 7): ${install}`
  );
}

/**
 * The model as the runtime calls it, after checking its version; throws a `ConfigurationError` naming
 * the version and what to install.
 */
export function toRuntimeModel(model: SupportedLanguageModel): LanguageModelV3 {
  const problem = checkModelVersion(model);
  if (problem) throw new ConfigurationError({ message: 'The model cannot be used.', problems: [problem] });
  // A v4 model answers the v3 calls flowstack makes with results of the same shape.
  return model as LanguageModelV3;
}
