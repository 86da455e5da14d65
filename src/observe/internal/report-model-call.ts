/**
 * One model call as a turn reports it: a `chat` span after the GenAI conventions (request, response,
 * tokens with their cached part; the prompt, system instructions and answer in the conventions' shapes
 * when content is recorded; the offered tools), the client metrics, the turn's usage tally, and live
 * progress for those who listen.
 */
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { Attributes } from '@opentelemetry/api';
import { messageOfThrown, readThrownField } from '../../errors/index.js';
import { flowstackAttribute as fs, genAi, genAiOperation, genAiProviderName } from '../gen-ai-attributes.js';
import {
  toGenAiFinishReason,
  toGenAiInput,
  toGenAiOutput,
  toGenAiToolDefinitions,
} from './gen-ai-messages.js';
import type { ModelCallEnd, ModelCallRecord } from './instrument-model.js';
import { openTelemetry } from './open-telemetry.js';
import type { TurnReporter } from './turn-reporter.js';

export function startModelCall(
  reporter: TurnReporter,
  call: LanguageModelV3CallOptions,
  mode: 'generate' | 'stream',
  model: LanguageModelV3,
): ModelCallRecord {
  // A call that no span records, no one listens to and no meter counts is only tallied for the turn's usage.
  if (!reporter.recording && !reporter.metrics.records && !reporter.wanted())
    return tallyOnly(reporter, model.modelId);
  const { threadId, recordContent, clock } = reporter.options;
  const flowstack = (call.providerOptions?.flowstack ?? {}) as { phase?: unknown; flow?: unknown };
  const phase = typeof flowstack.phase === 'string' ? flowstack.phase : 'unknown';
  const flow = typeof flowstack.flow === 'string' ? flowstack.flow : undefined;
  const parent = reporter.innermost(flow);
  const provider = genAiProviderName(model.provider);
  const span = reporter.startChild(
    `${genAiOperation.chat} ${model.modelId}`,
    openTelemetry().SpanKind.CLIENT,
    () => {
      const spanAttributes: Attributes = {
        [genAi.operationName]: genAiOperation.chat,
        [genAi.providerName]: provider,
        [genAi.requestModel]: model.modelId,
        [genAi.conversationId]: threadId,
        [genAi.sessionId]: threadId,
        [genAi.requestStream]: mode === 'stream',
        [fs.phase]: phase,
      };
      if (flow !== undefined) spanAttributes[fs.flowName] = flow;
      if (call.maxOutputTokens !== undefined) spanAttributes[genAi.requestMaxTokens] = call.maxOutputTokens;
      if (call.temperature !== undefined) spanAttributes[genAi.requestTemperature] = call.temperature;
      if (call.tools !== undefined && call.tools.length > 0)
        spanAttributes[genAi.toolDefinitions] = JSON.stringify(
          toGenAiToolDefinitions(call.tools, recordContent === true),
        );
      if (recordContent) {
        const input = toGenAiInput(call.prompt, reporter.filter);
        spanAttributes[genAi.inputMessages] = JSON.stringify(input.messages);
        if (input.systemInstructions.length > 0)
          spanAttributes[genAi.systemInstructions] = JSON.stringify(input.systemInstructions);
      }
      return spanAttributes;
    },
    parent,
  );
  const base = flow !== undefined ? { phase, flow } : { phase };
  if (reporter.wanted())
    reporter.progress(
      'model-stream-start',
      { ...base, provider: model.provider, model: model.modelId },
      parent,
    );
  const started = clock.now();
  let responseModel: string | undefined;
  let done = false;
  const settle = () => {
    done = true;
    reporter.openCalls.delete(record);
  };
  const record: ModelCallRecord = {
    wantsContent: recordContent === true && reporter.recording,
    metadata: (meta) => {
      if (done) return;
      if (meta.id !== undefined) span.setAttribute(genAi.responseId, meta.id);
      if (meta.modelId !== undefined) {
        responseModel = meta.modelId;
        span.setAttribute(genAi.responseModel, meta.modelId);
      }
      if ((meta.id !== undefined || meta.modelId !== undefined) && reporter.wanted())
        reporter.progress(
          'model-stream-metadata',
          { ...base, responseId: meta.id, model: meta.modelId },
          parent,
        );
    },
    end: (result) => {
      if (done) return;
      settle();
      const { usage } = result;
      reporter.tally.add(model.modelId, usage);
      reporter.metrics.recordModelCall({
        provider,
        requestModel: model.modelId,
        ...(responseModel !== undefined ? { responseModel } : {}),
        durationMs: clock.now() - started,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
      });
      if (reporter.recording) span.setAttributes(endAttributes(reporter, result));
      span.end();
      if (reporter.wanted())
        reporter.progress(
          'model-stream-end',
          {
            ...base,
            finishReason: result.finishReason,
            inputTokens: usage.inputTokens,
            outputTokens: usage.outputTokens,
          },
          parent,
        );
    },
    fail: (error) => {
      if (done) return;
      settle();
      const name = readThrownField(error, 'name');
      reporter.metrics.recordModelCall({
        provider,
        requestModel: model.modelId,
        durationMs: clock.now() - started,
        errorType: typeof name === 'string' && name !== '' ? name : '_OTHER',
      });
      reporter.fail(span, error);
      span.end();
      const message = reporter.options.redact.text(messageOfThrown(error));
      if (reporter.wanted()) reporter.progress('model-stream-error', { ...base, message }, parent);
    },
  };
  reporter.openCalls.add(record);
  return record;
}

/** The record of a call nobody watches: its usage counts toward the turn's, and nothing else is kept. */
function tallyOnly(reporter: TurnReporter, modelId: string): ModelCallRecord {
  return {
    wantsContent: false,
    metadata() {},
    end: (result) => reporter.tally.add(modelId, result.usage),
    fail() {},
  };
}

function endAttributes(reporter: TurnReporter, result: ModelCallEnd): Attributes {
  const { usage } = result;
  const attributes: Attributes = {
    [genAi.responseFinishReasons]: [toGenAiFinishReason(result.finishReason)],
    [genAi.usageInputTokens]: usage.inputTokens,
    [genAi.usageOutputTokens]: usage.outputTokens,
  };
  // Only what the provider reported: a cache count of 0 from a provider without a cache would mislead.
  if (usage.cacheReadTokens > 0) attributes[genAi.usageCacheReadInputTokens] = usage.cacheReadTokens;
  if (usage.cacheWriteTokens > 0) attributes[genAi.usageCacheCreationInputTokens] = usage.cacheWriteTokens;
  if (result.content)
    attributes[genAi.outputMessages] = JSON.stringify(
      toGenAiOutput(result.content, result.finishReason, reporter.filter),
    );
  return attributes;
}
