/**
 * The two GenAI client metrics, `gen_ai.client.token.usage` and `gen_ai.client.operation.duration`, made
 * once per meter. Through `@opentelemetry/api` only: with no meter provider registered the meter is the
 * API's no-op meter, and a model call records nothing (its attributes are not even built).
 */
import type { Attributes, Histogram, Meter } from '@opentelemetry/api';
import { genAi, genAiMetric, genAiOperation } from '../gen-ai-attributes.js';
import { openTelemetry } from './open-telemetry.js';

export interface GenAiMetrics {
  /** False on the API's no-op meter: nothing recorded goes anywhere. */
  readonly records: boolean;
  /** One finished or failed model call: its duration, and its tokens when it finished. */
  recordModelCall(call: {
    provider: string;
    requestModel: string;
    responseModel?: string;
    durationMs: number;
    inputTokens?: number;
    outputTokens?: number;
    errorType?: string;
  }): void;
}

const byMeter = new WeakMap<Meter, GenAiMetrics>();

/** The metrics of `meter`, or of the global meter `flowstack` (a no-op until an SDK registers one). */
export function genAiMetricsOf(meter: Meter = openTelemetry().metrics.getMeter('flowstack')): GenAiMetrics {
  let made = byMeter.get(meter);
  if (!made) {
    made = createGenAiMetrics(meter);
    byMeter.set(meter, made);
  }
  return made;
}

/** What a model call records when no meter provider is registered. */
const recordsNothing: GenAiMetrics = { records: false, recordModelCall() {} };

function createGenAiMetrics(meter: Meter): GenAiMetrics {
  if (meter === openTelemetry().createNoopMeter()) return recordsNothing;
  const tokens: Histogram = meter.createHistogram(genAiMetric.tokenUsage, {
    description: 'Number of input and output tokens used.',
    unit: '{token}',
    advice: { explicitBucketBoundaries: [...genAiMetric.tokenUsageBuckets] },
  });
  const duration: Histogram = meter.createHistogram(genAiMetric.operationDuration, {
    description: 'GenAI operation duration.',
    unit: 's',
    advice: { explicitBucketBoundaries: [...genAiMetric.durationBuckets] },
  });
  return {
    records: true,
    recordModelCall(call) {
      const attributes: Attributes = {
        [genAi.operationName]: genAiOperation.chat,
        [genAi.providerName]: call.provider,
        [genAi.requestModel]: call.requestModel,
      };
      if (call.responseModel !== undefined) attributes[genAi.responseModel] = call.responseModel;
      if (call.errorType !== undefined) attributes[genAi.errorType] = call.errorType;
      duration.record(call.durationMs / 1000, attributes);
      if (call.inputTokens !== undefined)
        tokens.record(call.inputTokens, { ...attributes, [genAi.tokenType]: 'input' });
      if (call.outputTokens !== undefined)
        tokens.record(call.outputTokens, { ...attributes, [genAi.tokenType]: 'output' });
    },
  };
}
