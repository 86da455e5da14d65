/**
 * Wraps an AI SDK model so that each call reports its start, response metadata, end and failure to
 * hooks, in both `doGenerate` and `doStream` modes. The wrapper changes nothing the caller sees.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';

export interface ModelCallEnd {
  finishReason: string;
  inputTokens: number;
  outputTokens: number;
}

/** What one call reports; every method may be called at most once and `end`/`fail` end the record. */
export interface ModelCallRecord {
  metadata(meta: { id?: string; modelId?: string }): void;
  end(result: ModelCallEnd): void;
  fail(error: unknown): void;
}

/** Returns `undefined` when nothing about this call will be reported: the call then runs unwrapped. */
export type StartModelCall = (
  call: LanguageModelV3CallOptions,
  mode: 'generate' | 'stream',
) => ModelCallRecord | undefined;

export function instrumentModel(model: LanguageModelV3, start: StartModelCall): LanguageModelV3 {
  return new InstrumentedModel(model, start);
}

/** One per turn, held while the turn runs: methods on the prototype, not a closure each. */
class InstrumentedModel implements LanguageModelV3 {
  readonly specificationVersion: LanguageModelV3['specificationVersion'];
  // Read once per turn: an accessor here (or one defined per object) makes V8 keep every wrapped model
  // as a slow dictionary object.
  readonly supportedUrls: LanguageModelV3['supportedUrls'];
  readonly provider: string;
  readonly modelId: string;
  private readonly model: LanguageModelV3;
  private readonly start: StartModelCall;

  constructor(model: LanguageModelV3, start: StartModelCall) {
    this.specificationVersion = model.specificationVersion;
    this.supportedUrls = model.supportedUrls;
    this.provider = model.provider;
    this.modelId = model.modelId;
    this.model = model;
    this.start = start;
  }

  // Not async: a call nobody observes is the inner model's promise itself, with no frame around it
  // that stays suspended while the model answers.
  doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const model = this.model;
    const record = this.start(options, 'generate');
    return record
      ? generateObserved(model, options, record)
      : callUnobserved(() => model.doGenerate(options));
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const model = this.model;
    const record = this.start(options, 'stream');
    if (!record) return callUnobserved(() => model.doStream(options));
    let result: LanguageModelV3StreamResult;
    try {
      result = await model.doStream(options);
    } catch (error) {
      record.fail(error);
      throw error;
    }
    let finish: ModelCallEnd = { finishReason: 'other', inputTokens: 0, outputTokens: 0 };
    const observe = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
      transform(part, controller) {
        if (part.type === 'response-metadata') record.metadata({ id: part.id, modelId: part.modelId });
        else if (part.type === 'finish')
          finish = { finishReason: part.finishReason.unified, ...countUsage(part.usage) };
        else if (part.type === 'error') record.fail(part.error);
        controller.enqueue(part);
      },
      flush() {
        record.end(finish);
      },
    });
    return { ...result, stream: result.stream.pipeThrough(observe) };
  }
}

/** The call as a promise, whether the model rejects or throws before it returns one. */
function callUnobserved<T>(call: () => PromiseLike<T>): Promise<T> {
  try {
    return Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error);
  }
}

async function generateObserved(
  model: LanguageModelV3,
  options: LanguageModelV3CallOptions,
  record: ModelCallRecord,
): Promise<LanguageModelV3GenerateResult> {
  try {
    const result = await model.doGenerate(options);
    record.metadata({ id: result.response?.id, modelId: result.response?.modelId });
    record.end({ finishReason: result.finishReason.unified, ...countUsage(result.usage) });
    return result;
  } catch (error) {
    record.fail(error);
    throw error;
  }
}

function countUsage(usage: LanguageModelV3Usage): { inputTokens: number; outputTokens: number } {
  return { inputTokens: usage.inputTokens.total ?? 0, outputTokens: usage.outputTokens.total ?? 0 };
}
