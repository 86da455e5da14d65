/**
 * Wraps an AI SDK model so that each call reports its start, response metadata, end and failure to
 * hooks, in both `doGenerate` and `doStream` modes. The wrapper changes nothing the caller sees.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from '@ai-sdk/provider';
import { countTokens, type TokenUsage } from '../turn-usage.js';

export interface ModelCallEnd {
  finishReason: string;
  usage: Omit<TokenUsage, 'modelCalls' | 'cost'>;
  /** The answer, when the record asked for it (`wantsContent`): a streamed one is put together here. */
  content?: LanguageModelV3Content[];
}

/** What one call reports; every method may be called at most once and `end`/`fail` end the record. */
export interface ModelCallRecord {
  /** Whether `end` should carry the answer's content (content recording is on and a span records). */
  readonly wantsContent: boolean;
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
      record.end({
        finishReason: result.finishReason.unified,
        usage: countTokens(result.usage),
        ...(record.wantsContent ? { content: result.content } : {}),
      });
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
    let finish: ModelCallEnd = { finishReason: 'other', usage: countTokens(noUsage) };
    const content = record.wantsContent ? createContentCollector() : undefined;
    const observe = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
      transform(part, controller) {
        if (part.type === 'response-metadata') record.metadata({ id: part.id, modelId: part.modelId });
        else if (part.type === 'finish')
          finish = { finishReason: part.finishReason.unified, usage: countTokens(part.usage) };
        else if (part.type === 'error') record.fail(part.error);
        else content?.add(part);
        controller.enqueue(part);
      },
      flush() {
        record.end(content ? { ...finish, content: content.parts() } : finish);
      },
    });
    return { ...result, stream: result.stream.pipeThrough(observe) };
  }
}

const noUsage = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/** A streamed answer put back together: its text and reasoning deltas joined, its tool calls as they came. */
function createContentCollector() {
  const parts: LanguageModelV3Content[] = [];
  const open = new Map<string, { type: 'text' | 'reasoning'; text: string }>();
  return {
    add(part: LanguageModelV3StreamPart): void {
      if (part.type === 'text-start' || part.type === 'reasoning-start') {
        const item = {
          type: part.type === 'text-start' ? ('text' as const) : ('reasoning' as const),
          text: '',
        };
        open.set(part.id, item);
        parts.push(item);
      } else if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
        const item = open.get(part.id);
        if (item) item.text += part.delta;
        else {
          const added = {
            type: part.type === 'text-delta' ? ('text' as const) : ('reasoning' as const),
            text: part.delta,
          };
          open.set(part.id, added);
          parts.push(added);
        }
      } else if (part.type === 'tool-call') parts.push(part);
    },
    parts: () => parts,
  };
}
