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

class InstrumentedModel implements LanguageModelV3 {
  readonly specificationVersion: LanguageModelV3['specificationVersion'];
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

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const model = this.model;
    const record = this.start(options, 'generate');
    if (!record) return model.doGenerate(options);
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

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const model = this.model;
    const record = this.start(options, 'stream');
    if (!record) return model.doStream(options);
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

function countUsage(usage: LanguageModelV3Usage): { inputTokens: number; outputTokens: number } {
  return { inputTokens: usage.inputTokens.total ?? 0, outputTokens: usage.outputTokens.total ?? 0 };
}
