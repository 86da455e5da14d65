import { createRequire } from 'node:module';
import type * as Anthropic from '@ai-sdk/anthropic';
import type * as OpenAI from '@ai-sdk/openai';
import type * as OpenAICompatible from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { ConfigurationError } from '../errors/index.js';

/** Environment variables as `process.env` holds them. */
export type ModelEnvironment = Readonly<Record<string, string | undefined>>;

/** A model chosen from the environment, with a one-line description for logs (never the key). */
export interface ResolvedModel {
  model: LanguageModelV3;
  description: string;
}

const expectedForms = [
  'openai:<model id>  (needs OPENAI_API_KEY; optional OPENAI_BASE_URL)',
  'anthropic:<model id>  (needs ANTHROPIC_API_KEY; optional ANTHROPIC_BASE_URL)',
  'openai-compatible:<base URL>#<model id>  (key from FLOWSTACK_API_KEY or OPENAI_API_KEY, if any)',
];

/**
 * Chooses the language model from `FLOWSTACK_MODEL`, so that the CLI, the server and examples run
 * against a real provider without code changes, and offline (scripted) when it is unset.
 *
 * - `openai:<id>` uses `@ai-sdk/openai` with `OPENAI_API_KEY` and optional `OPENAI_BASE_URL`. It
 *   takes the **chat-completions** model (`provider.chat(id)`), not the default Responses API
 *   model, so that the same setting also works against OpenAI-compatible servers given as
 *   `OPENAI_BASE_URL`.
 * - `anthropic:<id>` uses `@ai-sdk/anthropic` with `ANTHROPIC_API_KEY` and optional `ANTHROPIC_BASE_URL`.
 * - `openai-compatible:<baseURL>#<id>` uses `@ai-sdk/openai-compatible` (chat completions, usage
 *   requested in streams) with the key from `FLOWSTACK_API_KEY` or `OPENAI_API_KEY`; local servers
 *   may need none.
 *
 * Empty values count as unset. Nothing is sent over the network until the model is called.
 *
 * @returns `undefined` when `FLOWSTACK_MODEL` is unset.
 * @throws ConfigurationError naming the variable and the expected forms when the value is malformed
 *   or a required key is missing.
 *
 * @example
 * ```ts
 * const resolved = resolveModelFromEnv();
 * const model = resolved?.model ?? createScriptedModel({ steps: demoScript });
 * console.log(`model: ${resolved?.description ?? 'scripted (offline)'}`);
 * ```
 */
export function resolveModelFromEnv(env: ModelEnvironment = process.env): ResolvedModel | undefined {
  const setting = read(env, 'FLOWSTACK_MODEL');
  if (setting === undefined) return undefined;
  const separator = setting.indexOf(':');
  const provider = separator < 0 ? setting : setting.slice(0, separator);
  const rest = separator < 0 ? '' : setting.slice(separator + 1).trim();
  const malformed = (problem: string) =>
    new ConfigurationError({
      message: `FLOWSTACK_MODEL=${JSON.stringify(env.FLOWSTACK_MODEL)} is not a model setting`,
      problems: [problem, `expected one of:\n    ${expectedForms.join('\n    ')}`],
    });

  switch (provider) {
    case 'openai': {
      if (rest === '') throw malformed('the model id after "openai:" is missing');
      const baseURL = read(env, 'OPENAI_BASE_URL');
      const { createOpenAI } = loadProvider<typeof OpenAI>('@ai-sdk/openai');
      const openai = createOpenAI({ apiKey: readRequired(env, 'OPENAI_API_KEY', setting), baseURL });
      const endpoint = baseURL ?? 'https://api.openai.com/v1';
      return { model: openai.chat(rest), description: `openai:${rest} (chat completions at ${endpoint})` };
    }
    case 'anthropic': {
      if (rest === '') throw malformed('the model id after "anthropic:" is missing');
      const baseURL = read(env, 'ANTHROPIC_BASE_URL');
      const { createAnthropic } = loadProvider<typeof Anthropic>('@ai-sdk/anthropic');
      const anthropic = createAnthropic({ apiKey: readRequired(env, 'ANTHROPIC_API_KEY', setting), baseURL });
      const endpoint = baseURL ?? 'https://api.anthropic.com/v1';
      return { model: anthropic(rest), description: `anthropic:${rest} (messages at ${endpoint})` };
    }
    case 'openai-compatible': {
      const hash = rest.indexOf('#');
      const baseURL = hash < 0 ? rest : rest.slice(0, hash).trim();
      const modelId = hash < 0 ? '' : rest.slice(hash + 1).trim();
      if (!isHttpUrl(baseURL))
        throw malformed(`the base URL ${JSON.stringify(baseURL)} is not an http(s) URL`);
      if (modelId === '') throw malformed('the model id after "#" is missing');
      const apiKey = read(env, 'FLOWSTACK_API_KEY') ?? read(env, 'OPENAI_API_KEY');
      const { createOpenAICompatible } = loadProvider<typeof OpenAICompatible>('@ai-sdk/openai-compatible');
      const compatible = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL,
        apiKey,
        includeUsage: true,
      });
      return {
        model: compatible.chatModel(modelId),
        description: `openai-compatible:${modelId} (chat completions at ${baseURL})`,
      };
    }
    default:
      throw malformed(`unknown provider ${JSON.stringify(provider)}`);
  }
}

/**
 * A provider package loads when FLOWSTACK_MODEL names it, not with flowstack: an agent given its model
 * in code never loads them (docs/decisions/0073-cold-start-loads-on-first-use.md).
 */
function loadProvider<T>(name: string): T {
  return createRequire(import.meta.url)(name) as T;
}

function read(env: ModelEnvironment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function readRequired(env: ModelEnvironment, name: string, setting: string): string {
  const value = read(env, name);
  if (value !== undefined) return value;
  throw new ConfigurationError({
    message: `FLOWSTACK_MODEL=${JSON.stringify(setting)} needs ${name}, which is not set`,
    problems: [
      `set ${name}, or choose another form of FLOWSTACK_MODEL:\n    ${expectedForms.join('\n    ')}`,
    ],
  });
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
