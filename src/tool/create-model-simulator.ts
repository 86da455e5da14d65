/**
 * Anticipatory simulation with a language model (seed 003): before a `restricted` or `privileged`
 * call, the model predicts its outcome and risks in two or three sentences. The prediction is cached
 * per tool and redacted arguments (five minutes by default), so the same call asked again costs no
 * model call. It only sees redacted arguments, and what it says is redacted before it is cached.
 */
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { redactSecrets } from '../redact/index.js';
import type { SimulationCache } from '../spec/index.js';
import { canonicalJson, stableHash } from '../util/index.js';
import type { Simulator } from './tool-batch-context.js';
import { toolDefaults } from './tool-defaults.js';

export interface ModelSimulatorOptions {
  model: LanguageModelV3;
  /** Where predictions are reused from; its own clock decides when they expire. */
  cache?: SimulationCache;
  /** How long a prediction is reused; default `toolDefaults.simulationTtlMs` (5 minutes). */
  ttlMs?: number;
  maxOutputTokens?: number;
  /** Defaults to `redactSecrets`. */
  redact?: (text: string) => string;
}

const instructions =
  'You review an action an AI agent is about to take. In two or three sentences, predict what the ' +
  'call will do and name its risks (irreversible effects, data leaving the system, wrong target). ' +
  'Be concrete and brief; do not refuse and do not repeat the arguments.';

/**
 * @example
 * const simulate = createModelSimulator({ model, cache: createMemorySimulationCache() });
 * await executeToolBatch(calls, { ...context, simulate });
 */
export function createModelSimulator(options: ModelSimulatorOptions): Simulator {
  const ttlMs = options.ttlMs ?? toolDefaults.simulationTtlMs;
  const redact = options.redact ?? redactSecrets;
  return async ({ tool, redactedInput, signal }) => {
    const key = `simulation:${stableHash({ tool: tool.name, input: redactedInput })}`;
    const cached = await options.cache?.get(key).catch(() => undefined);
    if (cached !== undefined) return cached;
    const tags = [
      tool.accessesPrivateData ? 'reads private data' : '',
      tool.receivesUntrustedInput ? 'receives untrusted input' : '',
      tool.communicatesExternally ? 'communicates externally' : '',
      tool.idempotent ? 'idempotent' : 'not idempotent',
    ].filter(Boolean);
    const call = canonicalJson(redactedInput) ?? '{}';
    const response = await options.model.doGenerate({
      prompt: [
        { role: 'system', content: instructions },
        {
          role: 'user',
          content: [
            {
              type: 'text',
              text:
                `Tool: ${tool.name} (${tool.capability}; ${tags.join(', ')})\n` +
                `What it does: ${tool.description}\n` +
                `Arguments: ${call.length > 4_000 ? `${call.slice(0, 4_000)}…` : call}`,
            },
          ],
        },
      ],
      maxOutputTokens: options.maxOutputTokens ?? 300,
      providerOptions: { flowstack: { phase: 'simulate', tool: tool.name } },
      abortSignal: signal,
    });
    let text = '';
    for (const part of response.content) if (part.type === 'text') text += part.text;
    text = redact(text.trim());
    if (text === '') return undefined;
    await options.cache?.set(key, text, ttlMs).catch(() => undefined);
    return text;
  };
}
