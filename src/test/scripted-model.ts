import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3ResponseMetadata,
} from '@ai-sdk/provider';
import { type Clock, copyWith, systemClock } from '../util/index.js';
import {
  buildStepOutput,
  measureOutput,
  type StepOutput,
  toV3FinishReason,
} from './internal/build-step-output.js';
import { countTokens, toV3Usage } from './internal/count-tokens.js';
import { createPartStream } from './internal/create-part-stream.js';
import { describeStep } from './internal/describe-step.js';
import { matchesStep } from './internal/matches-step.js';
import { LazyCallContext, measurePrompt } from './internal/read-call-context.js';
import { createScriptCursor } from './internal/script-cursor.js';
import { toContent, toStreamParts } from './internal/to-stream-parts.js';
import { validateScript } from './internal/validate-script.js';
import { ScriptExhaustedError } from './script-exhausted-error.js';
import type { ScriptStep, ScriptUsage } from './script-step.js';

/** Options of `createScriptedModel`. */
export interface ScriptedModelOptions {
  steps: readonly ScriptStep[];
  /** Defaults to `scripted-model`. */
  modelId?: string;
  /** Defaults to `flowstack-scripted`. */
  provider?: string;
  /** Token counts for steps that give none; each count left out is estimated (chars / 4). */
  defaultUsage?: ScriptUsage;
  /** Pause between stream parts, for demos that should look live. Defaults to 0. */
  chunkDelayMs?: number;
  /** Times the pauses and stamps responses. Defaults to the system clock. */
  clock?: Clock;
  /**
   * How many of the latest calls `calls` keeps. Defaults to all, which a test wants; a model that
   * serves for long (the bundled demos behind `flowstack serve`) keeps a few, or every call it was
   * asked would stay in memory with its prompt and abort signal.
   */
  keepCalls?: number;
}

/** One call the model received, in call order, whether or not a step answered it. */
export interface ScriptedCall {
  method: 'generate' | 'stream';
  /** From `providerOptions.flowstack.phase`. */
  phase: string | undefined;
  /** From `providerOptions.flowstack.flow`. */
  flow: string | undefined;
  /** Text of the last user message. */
  lastUser: string | undefined;
  /** Names of the tools offered. */
  toolNames: string[];
  prompt: LanguageModelV3Prompt;
  /** The complete call options, for assertions on tools, tool choice, response format … */
  options: LanguageModelV3CallOptions;
  /** Position in the script of the step that answered; `undefined` when none matched. */
  stepIndex: number | undefined;
  label: string | undefined;
}

/** An AI SDK language model that plays a script, and records what it was asked. */
export interface ScriptedModel extends LanguageModelV3 {
  /** The calls it was asked, oldest first: all of them, or the latest `keepCalls`. */
  readonly calls: ScriptedCall[];
  /** Every call it was asked, counting those `keepCalls` let go. */
  readonly callCount: number;
  /** Steps not yet consumed, not counting repeating ones; a finished test usually expects 0. */
  remaining(): number;
}

/**
 * Creates a `LanguageModelV3` that answers from a script instead of a provider: the model behind
 * every flowstack test and the offline demo. Both `doGenerate` and `doStream` are supported; a
 * call that no step matches rejects with a `ScriptExhaustedError` describing the call.
 *
 * @example
 * ```ts
 * const model = createScriptedModel({
 *   steps: [
 *     { match: { phase: 'skill' }, toolCalls: [{ toolName: 'weather', input: { city: 'Oslo' } }] },
 *     { match: { phase: 'skill' }, text: 'It is sunny in Oslo.' },
 *   ],
 * });
 * const result = await generateText({ model, tools, prompt: 'Weather in Oslo?', stopWhen: stepCountIs(2) });
 * expect(model.remaining()).toBe(0);
 * ```
 */
export function createScriptedModel(options: ScriptedModelOptions): ScriptedModel {
  const modelId = options.modelId ?? 'scripted-model';
  const source = `scripted model "${modelId}"`;
  validateScript(options.steps, source);
  const clock = options.clock ?? systemClock;
  const cursor = createScriptCursor(options.steps);
  const calls: ScriptedCall[] = [];
  const keepCalls = options.keepCalls ?? Number.POSITIVE_INFINITY;
  let callCount = 0;
  let toolCallCount = 0;
  const nextCallId = () => `call_${++toolCallCount}`;

  function answer(method: ScriptedCall['method'], callOptions: LanguageModelV3CallOptions) {
    callOptions.abortSignal?.throwIfAborted();
    const call = new RecordedCall(method, callOptions);
    const found = cursor.take((step) => matchesStep(step.match, call, callOptions));
    const { prompt } = callOptions;
    call.stepIndex = found?.index;
    call.label = found?.step.label;
    callCount += 1;
    calls.push(call);
    if (calls.length > keepCalls) calls.splice(0, calls.length - keepCalls);
    if (found === undefined) {
      const pendingSteps = cursor.pending().map(({ step, index }) => describeStep(step, index));
      throw new ScriptExhaustedError({
        source,
        callNumber: callCount,
        ...call.read(),
        pendingSteps,
        totalSteps: options.steps.length,
      });
    }
    const step = found.step.respond ? copyWith(found.step, found.step.respond(callOptions)) : found.step;
    // The script's own steps were checked when the model was made; what `respond` returned is checked here.
    if (step !== found.step) validateScript([step], source);
    const output = buildStepOutput(step, nextCallId);
    const counts = countTokens({
      usage: step.usage,
      defaultUsage: options.defaultUsage,
      // Measuring the prompt walks all of it: only when its token count is estimated.
      promptCharacters:
        (step.usage?.inputTokens ?? options.defaultUsage?.inputTokens) === undefined
          ? measurePrompt(prompt)
          : 0,
      output: measureOutput(output),
    });
    const metadata: LanguageModelV3ResponseMetadata = {
      id: `resp_${callCount}`,
      modelId,
      timestamp: new Date(clock.now()),
    };
    return { step, output, usage: toV3Usage(counts), metadata };
  }

  return {
    specificationVersion: 'v3',
    provider: options.provider ?? 'flowstack-scripted',
    modelId,
    supportedUrls: {},
    calls,
    get callCount() {
      return callCount;
    },
    remaining: () => cursor.remaining(),
    async doGenerate(callOptions) {
      const { step, output, usage, metadata } = answer('generate', callOptions);
      if (step.error !== undefined) throw step.error;
      return {
        content: toContent(output),
        finishReason: toV3FinishReason(output),
        usage,
        response: metadata,
        warnings: [],
      };
    },
    async doStream(callOptions) {
      const { step, output, usage, metadata } = answer('stream', callOptions);
      if (step.error !== undefined && !hasOutput(output)) throw step.error;
      const parts = toStreamParts({ output, usage, metadata, error: step.error });
      const stream = createPartStream(parts, {
        signal: callOptions.abortSignal,
        clock,
        delayMs: options.chunkDelayMs ?? 0,
      });
      return { stream };
    },
  };
}

/** A call as `calls` keeps it: the last user text and the tools' names are read when first asked for. */
class RecordedCall extends LazyCallContext implements ScriptedCall {
  readonly method: ScriptedCall['method'];
  readonly prompt: LanguageModelV3Prompt;
  readonly options: LanguageModelV3CallOptions;
  stepIndex: number | undefined = undefined;
  label: string | undefined = undefined;

  constructor(method: ScriptedCall['method'], options: LanguageModelV3CallOptions) {
    super(options);
    this.method = method;
    this.prompt = options.prompt;
    this.options = options;
  }
}

function hasOutput(output: StepOutput): boolean {
  return output.reasoning !== undefined || output.text !== undefined || output.toolCalls.length > 0;
}
