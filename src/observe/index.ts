export {
  type ConsoleLike,
  type ConsoleLoggerOptions,
  createConsoleLogger,
  defaultLogger,
} from './create-console-logger.js';
export { createErrorReceiver, type ErrorReceiverOptions } from './create-error-receiver.js';
export {
  bindLogger,
  createRedactingLogger,
  type RedactingLoggerOptions,
} from './create-redacting-logger.js';
export {
  createTurnTelemetry,
  type InstrumentableTool,
  type TelemetryScope,
  type TurnTelemetry,
  type TurnTelemetryEnd,
  type TurnTelemetryOptions,
} from './create-turn-telemetry.js';
export { decodeObservation } from './decode-observation.js';
export {
  flowstackAttribute,
  genAi,
  genAiMetric,
  genAiOperation,
  genAiProviderName,
} from './gen-ai-attributes.js';
export { type OpenTelemetryApi, openTelemetry } from './internal/open-telemetry.js';
export {
  createObservationBus,
  type ObservationBus,
  type ObservationListener,
  type SubscribeObservations,
  type SubscribeOptions,
} from './observation-bus.js';
export {
  isObservationOf,
  isProgress,
  type ObservationDataMap,
  type ObservationDataOf,
  type ObservationOf,
  type ObservedPlanItem,
} from './observation-data.js';
export {
  lastObservationId,
  observationPageSize,
  type ReplayObservationsOptions,
  replayObservations,
} from './replay-observations.js';
export { type StreamObservationsOptions, streamObservations } from './stream-observations.js';
export { type OpenSuspension, summarizeThreadEvents } from './summarize-thread-events.js';
export {
  createUsageTally,
  type ModelPrice,
  type PriceTable,
  type TokenUsage,
  type TurnUsage,
  type UsageTally,
} from './turn-usage.js';
